/**
 * Files on this machine, under DATA_DIR/uploads/<key>. Uploads imitate S3's browser POST: the
 * API signs {key, expires, content_type, max_size} with an HMAC of the instance secret, and the
 * public upload route (routes/assets) checks that signature before writing a byte.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isSafeKey, type SignedUpload, type Storage, UPLOAD_EXPIRES_IN, type UploadOptions } from "./types.ts";

/** Where the browser posts uploads when the storage is local (a public route of this server). */
export const LOCAL_UPLOAD_PATH = "/api/assets/v2/upload/";

/** The upload carried more bytes than its signature allows. */
export class FileTooLargeError extends Error {
  constructor() {
    super("File is larger than the upload allows.");
  }
}

export type VerifiedUpload = { key: string; maxSize: number; contentType: string };

export class LocalStorage implements Storage {
  readonly driver = "local" as const;
  readonly root: string;
  private readonly uploadUrl: string;
  private readonly signingKey: Buffer;
  private readonly now: () => number;

  constructor(options: { dir: string; secretKey: string; uploadUrl: string; now?: () => number }) {
    this.root = path.resolve(options.dir);
    this.uploadUrl = options.uploadUrl;
    // A key of its own, derived from the instance secret, so these signatures cannot be
    // confused with any other HMAC the server makes with that secret.
    this.signingKey = createHmac("sha256", options.secretKey).update("tideline:local-upload:v1").digest();
    this.now = options.now ?? Date.now;
  }

  async createUpload(key: string, options: UploadOptions): Promise<SignedUpload> {
    this.pathOf(key);
    const expires = String(Math.floor(this.now() / 1000) + (options.expiresIn ?? UPLOAD_EXPIRES_IN));
    const fields = { key, expires, content_type: options.contentType, max_size: String(options.maxSize) };
    return { url: this.uploadUrl, fields: { ...fields, signature: this.sign(fields) } };
  }

  /**
   * Check an upload form's signed fields. Returns what the upload may write, or the reason it
   * may not (bad or missing signature, expired).
   */
  verifyUpload(fields: Record<string, string | undefined>): VerifiedUpload | { error: string } {
    const { key, expires, content_type, max_size, signature } = fields;
    if (!key || !expires || content_type === undefined || !max_size || !signature) {
      return { error: "The upload form is missing its signed fields." };
    }
    const expected = Buffer.from(this.sign({ key, expires, content_type, max_size }));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return { error: "The upload signature is not valid." };
    }
    if (!/^\d+$/.test(expires) || Number(expires) * 1000 < this.now()) {
      return { error: "The upload signature has expired. Please try again." };
    }
    const maxSize = Number(max_size);
    if (!Number.isSafeInteger(maxSize) || maxSize < 0 || !isSafeKey(key)) {
      return { error: "The upload signature is not valid." };
    }
    return { key, maxSize, contentType: content_type };
  }

  /**
   * Store `source` at `key`, refusing more than `maxSize` bytes (FileTooLargeError). Bytes go to
   * a temporary file renamed into place at the end, so a refused or broken upload leaves nothing.
   */
  async write(key: string, source: Readable, maxSize: number): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString("hex")}.part`;
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxSize) done(new FileTooLargeError());
        else done(null, chunk);
      },
    });
    try {
      await pipeline(source, limit, createWriteStream(temp, { flags: "wx", mode: 0o600 }));
      await rename(temp, target);
    } catch (err) {
      await unlink(temp).catch(() => {});
      throw err;
    }
    return { size };
  }

  async putFile(key: string, filePath: string): Promise<{ size: number }> {
    return this.write(key, createReadStream(filePath), Number.MAX_SAFE_INTEGER);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const info = await this.stat(key);
    if (!info) return null;
    return { stream: createReadStream(this.pathOf(key)), size: info.size };
  }

  /** Local files have no URL of their own: the download route streams them. */
  async downloadUrl(): Promise<string | null> {
    return null;
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  /** The file behind `key`, refusing any key that could leave the uploads folder. */
  pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!isSafeKey(key) || !resolved.startsWith(this.root + path.sep)) throw new Error(`Unsafe storage key: ${key}`);
    return resolved;
  }

  private sign(fields: { key: string; expires: string; content_type: string; max_size: string }): string {
    // JSON of an array: unambiguous whatever the values contain.
    const message = JSON.stringify([fields.key, fields.expires, fields.content_type, fields.max_size]);
    return createHmac("sha256", this.signingKey).update(message).digest("base64url");
  }
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === "ENOENT";
}
