/**
 * Where uploaded files live. Browsers upload straight to the storage (a signed multipart POST,
 * no session), the API only hands out the signature and later checks what arrived. Two drivers:
 * LocalStorage (files under DATA_DIR/uploads, the upload POST answered by this server) and
 * S3Storage (any S3-compatible service: AWS, MinIO, R2…).
 */
import type { Readable } from "node:stream";

/** What a browser needs to upload one file: POST a multipart form of `fields` plus `file` (last) to `url`. */
export type SignedUpload = { url: string; fields: Record<string, string> };

export type UploadOptions = {
  /** Largest accepted file, in bytes; the storage refuses anything bigger. */
  maxSize: number;
  /** The MIME type the upload is signed for. */
  contentType: string;
  /** Seconds the signature stays valid. */
  expiresIn?: number;
};

export type DownloadOptions = {
  /** Content-Type and Content-Disposition the response must carry (overriding what was stored). */
  contentType: string;
  contentDisposition: string;
  cacheControl: string;
  /** Seconds the URL stays valid. */
  expiresIn?: number;
};

export interface Storage {
  readonly driver: "local" | "s3";
  /** Sign a browser upload of one object at `key`. */
  createUpload(key: string, options: UploadOptions): Promise<SignedUpload>;
  /** The stored object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** A stream of the object's bytes and its size, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /**
   * A short-lived URL the browser may fetch the object from directly (S3: presigned GET), or
   * null when the server streams the file itself (local).
   */
  downloadUrl(key: string, options: DownloadOptions): Promise<string | null>;
  /**
   * Store the file at `filePath` (made by the server itself: an export) as the object `key`,
   * streamed, never held in memory. Returns its size.
   */
  putFile(key: string, filePath: string, contentType: string): Promise<{ size: number }>;
  /** Remove the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
}

/** Default lifetime of an upload signature: long enough for 5 MB on a slow line. */
export const UPLOAD_EXPIRES_IN = 10 * 60;
/** Default lifetime of a presigned download URL. */
export const DOWNLOAD_EXPIRES_IN = 5 * 60;

/**
 * Object keys are ours (workspace or user id / asset id), never a user's file name, but check
 * anyway: a key must be relative, made of safe segments, without `.` or `..`.
 */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split("/").every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment) && !/^\.+$/.test(segment));
}
