/**
 * The local storage's upload endpoint, standing in for S3's browser POST: a multipart form of
 * the signed fields followed by the file, sent without credentials. No session is needed — the
 * HMAC signature made when the upload was requested is the permission — so the route is public.
 *
 * A signed form is used once (like a nonce): the statement that accepts the upload claims the
 * asset row (`upload_received_at`), so a second post of the same form — a replay, or a
 * concurrent double post — is refused with 409 and the first file stays. A post that fails
 * after its claim (too large, broken off) gives the claim back, so the browser may retry.
 *
 * The Origin check in app.ts still applies (it is an unsafe method under /api): the browser
 * posts to our own origin and sends that Origin, even with `credentials: "omit"`, so it passes;
 * a post from another site, or one without Origin or Referer, is refused with 403 before this
 * handler runs.
 */
import { FILE_TOO_LARGE_MESSAGE, MAX_UPLOAD_SIZE } from "@tideline/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { fileAssets } from "../../db/schema.ts";
import { ApiError, badRequest, notFound } from "../../http/errors.ts";
import { FileTooLargeError, LOCAL_UPLOAD_PATH, LocalStorage, type Storage } from "../../storage/index.ts";

/** Busboy's limits: one file, a handful of short fields, never more than the largest kind allows. */
const MULTIPART_LIMITS = { fileSize: MAX_UPLOAD_SIZE, files: 1, fields: 16, fieldSize: 4096, parts: 20 };

/** Room for the signed fields and multipart boundaries around the largest file. */
const FORM_OVERHEAD = 64 * 1024;

export function uploadRoutes(app: FastifyInstance, storage: Storage): void {
  app.post(LOCAL_UPLOAD_PATH, { config: { public: true } }, async (request, reply) => {
    if (!(storage instanceof LocalStorage)) throw notFound("Upload endpoint");
    if (!request.isMultipart()) throw badRequest("Send the file as multipart/form-data.");
    // Busboy throws a plain Error (a 500) on a missing, empty or over-long boundary: refuse first.
    if (!hasValidBoundary(request.headers["content-type"])) {
      throw badRequest(
        "The multipart body needs a boundary of 1–70 characters in its Content-Type.",
        undefined,
        "INVALID_MULTIPART",
      );
    }
    // Browsers always send the length of a form; knowing it bounds what we may have to drain.
    const length = Number(request.headers["content-length"]);
    if (!Number.isSafeInteger(length)) {
      throw new ApiError(411, "Content-Length is required.", { code: "LENGTH_REQUIRED" });
    }
    if (length > MAX_UPLOAD_SIZE + FORM_OVERHEAD) throw tooLarge(MAX_UPLOAD_SIZE);

    try {
      await receive(request, storage, app.ctx.db);
    } catch (err) {
      // Refused half-way: read and drop the rest of the body, so the browser gets our answer
      // instead of a connection stalled on an unread request.
      request.raw.unpipe();
      request.raw.resume();
      throw malformedMultipart(err) ?? err;
    }
    return reply.status(204).send();
  });
}

/** Verify the signed fields and store the file they allow; throws the reason for any refusal. */
async function receive(request: FastifyRequest, storage: LocalStorage, db: Db): Promise<void> {
  // Like S3, fields count only when they come before the file; later ones are ignored.
  const fields: Record<string, string> = {};
  let stored = false;
  for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
    if (part.type === "field") {
      if (typeof part.value === "string") fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== "file") {
      part.file.resume();
      continue;
    }
    const verified = storage.verifyUpload(fields);
    if ("error" in verified) {
      part.file.resume();
      throw badRequest(verified.error, undefined, "UPLOAD_REFUSED");
    }
    const claim = await claimUpload(db, verified.key);
    if ("error" in claim) {
      part.file.resume();
      throw claim.error;
    }
    try {
      await storage.write(verified.key, part.file, verified.maxSize);
      // Busboy cut the stream at the hard ceiling: what was written is incomplete.
      if (part.file.truncated) {
        await storage.delete(verified.key);
        throw tooLarge(verified.maxSize);
      }
    } catch (err) {
      await releaseUpload(db, claim.id);
      if (err instanceof FileTooLargeError) throw tooLarge(verified.maxSize);
      throw err;
    }
    stored = true;
  }
  if (!stored) throw badRequest("No file was sent.", { file: ["No file was sent."] });
}

/**
 * Claim the asset whose object is `key` for this upload, in one statement: it succeeds for
 * exactly one post of a signed form. Refused when the form was used already (409) or the asset
 * is gone (deleted, or confirmed some other way).
 */
async function claimUpload(db: Db, key: string): Promise<{ id: string } | { error: ApiError }> {
  const assetId = key.split("/").pop() ?? "";
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(assetId)) {
    return { error: badRequest("The upload signature is not valid.", undefined, "UPLOAD_REFUSED") };
  }
  const where = and(eq(fileAssets.id, assetId), eq(fileAssets.storageKey, key), isNull(fileAssets.deletedAt));
  const [claimed] = await db
    .update(fileAssets)
    .set({ uploadReceivedAt: sql`now()` })
    .where(and(where, isNull(fileAssets.uploadReceivedAt), eq(fileAssets.isUploaded, false)))
    .returning({ id: fileAssets.id });
  if (claimed) return claimed;
  const [existing] = await db.select({ id: fileAssets.id }).from(fileAssets).where(where).limit(1);
  if (!existing) {
    return { error: badRequest("This upload is no longer expected: request a new one.", undefined, "UPLOAD_REFUSED") };
  }
  const message = "This upload form has already been used. Request a new upload to send another file.";
  return { error: new ApiError(409, message, { code: "UPLOAD_ALREADY_USED" }) };
}

/** Give the claim back after a failed upload, so the same form may be posted again. */
async function releaseUpload(db: Db, id: string): Promise<void> {
  await db
    .update(fileAssets)
    .set({ uploadReceivedAt: null })
    .where(and(eq(fileAssets.id, id), eq(fileAssets.isUploaded, false)));
}

/** RFC 2046: a boundary is 1 to 70 characters. */
function hasValidBoundary(contentType: string | undefined): boolean {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2] ?? "";
  return boundary.length >= 1 && boundary.length <= 70;
}

/** A body busboy could not parse (cut short, broken part headers) is the sender's fault: 400. */
function malformedMultipart(err: unknown): ApiError | null {
  if (err instanceof ApiError || !(err instanceof Error) || "statusCode" in err) return null;
  if (!/multipart|unexpected end|malformed/i.test(err.message)) return null;
  return badRequest(`The multipart body could not be read: ${err.message}.`, undefined, "INVALID_MULTIPART");
}

/** The signature allows at most the size declared when the upload was requested. */
function tooLarge(maxSize: number) {
  const message =
    maxSize >= MAX_UPLOAD_SIZE ? FILE_TOO_LARGE_MESSAGE : "The file is larger than the size declared for it.";
  return badRequest(message, { file: [message] }, "FILE_TOO_LARGE");
}
