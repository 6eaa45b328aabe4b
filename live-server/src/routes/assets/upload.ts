/**
 * The local storage's upload endpoint, standing in for S3's browser POST: a multipart form of
 * the signed fields followed by the file, sent without credentials. No session is needed — the
 * HMAC signature made when the upload was requested is the permission — so the route is public.
 *
 * The Origin check in app.ts still applies (it is an unsafe method under /api): the browser
 * posts to our own origin and sends that Origin, even with `credentials: "omit"`, so it passes;
 * a post from another site, or one without Origin or Referer, is refused with 403 before this
 * handler runs.
 */
import { FILE_TOO_LARGE_MESSAGE, MAX_UPLOAD_SIZE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
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
    // Browsers always send the length of a form; knowing it bounds what we may have to drain.
    const length = Number(request.headers["content-length"]);
    if (!Number.isSafeInteger(length)) {
      throw new ApiError(411, "Content-Length is required.", { code: "LENGTH_REQUIRED" });
    }
    if (length > MAX_UPLOAD_SIZE + FORM_OVERHEAD) throw tooLarge(MAX_UPLOAD_SIZE);

    try {
      await receive(request, storage);
    } catch (err) {
      // Refused half-way: read and drop the rest of the body, so the browser gets our answer
      // instead of a connection stalled on an unread request.
      request.raw.unpipe();
      request.raw.resume();
      throw err;
    }
    return reply.status(204).send();
  });
}

/** Verify the signed fields and store the file they allow; throws the reason for any refusal. */
async function receive(request: FastifyRequest, storage: LocalStorage): Promise<void> {
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
    try {
      await storage.write(verified.key, part.file, verified.maxSize);
    } catch (err) {
      if (err instanceof FileTooLargeError) throw tooLarge(verified.maxSize);
      throw err;
    }
    // Busboy cut the stream at the hard ceiling: what was written is incomplete.
    if (part.file.truncated) {
      await storage.delete(verified.key);
      throw tooLarge(verified.maxSize);
    }
    stored = true;
  }
  if (!stored) throw badRequest("No file was sent.", { file: ["No file was sent."] });
}

/** The signature allows at most the size declared when the upload was requested. */
function tooLarge(maxSize: number) {
  const message =
    maxSize >= MAX_UPLOAD_SIZE ? FILE_TOO_LARGE_MESSAGE : "The file is larger than the size declared for it.";
  return badRequest(message, { file: [message] }, "FILE_TOO_LARGE");
}
