/**
 * S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, …). Browsers upload with a
 * presigned POST whose policy pins the key, the Content-Type and the size range, and download
 * through a short-lived presigned GET that overrides the response headers.
 */
import { createReadStream } from "node:fs";
import { stat as fileStat } from "node:fs/promises";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  DOWNLOAD_EXPIRES_IN,
  type DownloadOptions,
  isSafeKey,
  type SignedUpload,
  type Storage,
  UPLOAD_EXPIRES_IN,
  type UploadOptions,
} from "./types.ts";

export type S3StorageConfig = {
  /** Set for anything but AWS itself (MinIO, R2…): then buckets are addressed by path. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
};

export class S3Storage implements Storage {
  readonly driver = "s3" as const;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      // MinIO and most self-hosted services have no per-bucket DNS names.
      forcePathStyle: Boolean(config.endpoint),
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Newer SDKs add CRC checksums to every request by default, which several S3-compatible
      // services reject; only send them where S3 requires them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async createUpload(key: string, options: UploadOptions): Promise<SignedUpload> {
    assertKey(key);
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: key,
      Fields: { "Content-Type": options.contentType },
      Conditions: [
        ["content-length-range", 0, options.maxSize],
        ["eq", "$Content-Type", options.contentType],
        ["eq", "$key", key],
      ],
      Expires: options.expiresIn ?? UPLOAD_EXPIRES_IN,
    });
    return { url, fields };
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<{ size: number }> {
    assertKey(key);
    // A known length lets the SDK stream the file in one PUT (S3 takes up to 5 GB that way).
    const { size } = await fileStat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
    return { size };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    assertKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = object.Body;
      if (!(body instanceof Readable)) throw new Error("S3 returned no readable body");
      return { stream: body, size: object.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async downloadUrl(key: string, options: DownloadOptions): Promise<string> {
    assertKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      // The stored Content-Type is whatever the uploader declared: never trust it for serving.
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
      ResponseCacheControl: options.cacheControl,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresIn ?? DOWNLOAD_EXPIRES_IN });
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

function assertKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}
