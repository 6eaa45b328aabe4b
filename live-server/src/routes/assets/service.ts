/**
 * The upload flow shared by every asset route (calls-errors-sync §4): validate the request,
 * create the file_assets row and sign an upload; later check what reached the storage; serve
 * files with headers that keep them from ever running as part of our origin.
 */
import { randomUUID } from "node:crypto";
import {
  ASSET_SIZE_LIMIT,
  type AssetKind,
  FILE_TOO_LARGE_MESSAGE,
  INLINE_ASSET_TYPES,
  INLINE_IMAGE_TYPES,
} from "@tideline/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { fileAssets, issueComments, issues } from "../../db/schema.ts";
import { badRequest } from "../../http/errors.ts";
import { guestSeesOwnOnly, type ProjectAccess } from "../../policies/access.ts";
import { DOWNLOAD_EXPIRES_IN, type SignedUpload, type Storage } from "../../storage/index.ts";
import type { AssetRow } from "./presenter.ts";

/** The body of every "request a signed upload" call. */
export const uploadRequestFields = {
  name: z.string().trim().min(1, "File name is required").max(1000),
  // Browsers send "" when they do not know a file's type.
  type: z.string().max(255).default(""),
  size: z.number().int().min(0),
};

const FILE_NAME_MAX = 255;

/**
 * A file name safe to store and to put in a Content-Disposition header: the last path segment,
 * without control or bidirectional-override characters (used to fake extensions), whitespace
 * collapsed, leading dots dropped, at most 255 characters with the extension kept.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  let name = base
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu, "")
    .trim()
    .replace(/^\.+/, "")
    .trim();
  if (!name) return "file";
  const chars = [...name];
  if (chars.length > FILE_NAME_MAX) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 ? [...name.slice(dot)] : [];
    const keepExt = ext.length > 0 && ext.length <= 16 ? ext : [];
    name = chars.slice(0, FILE_NAME_MAX - keepExt.length).join("") + keepExt.join("");
  }
  return name;
}

/** A bare lower-case MIME type (`type/subtype`), or application/octet-stream when unusable. */
export function normalizeMimeType(raw: string): string {
  const type = (raw.split(";")[0] ?? "").trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type) ? type : "application/octet-stream";
}

export type UploadRequest = { name: string; mimeType: string; size: number };

/**
 * Check a request's size and type against its kind: attachments take any file up to the limit,
 * every other kind is an image shown inline (logos, covers, avatars, images in rich text).
 */
export function checkUploadRequest(kind: AssetKind, body: { name: string; type: string; size: number }): UploadRequest {
  if (body.size > ASSET_SIZE_LIMIT[kind]) {
    throw badRequest(FILE_TOO_LARGE_MESSAGE, { size: [FILE_TOO_LARGE_MESSAGE] }, "FILE_TOO_LARGE");
  }
  const mimeType = normalizeMimeType(body.type);
  if (kind !== "ISSUE_ATTACHMENT" && !(INLINE_IMAGE_TYPES as readonly string[]).includes(mimeType)) {
    const message = "Invalid file type. Use a PNG, JPEG, GIF, WebP or AVIF image.";
    throw badRequest(message, { type: [message] }, "INVALID_FILE_TYPE");
  }
  return { name: sanitizeFileName(body.name), mimeType, size: body.size };
}

/**
 * Create the asset row (not yet uploaded) and sign the browser's upload. The object key is ours
 * — owner id and asset id — never the file's name. The signature allows at most the declared
 * size, so the file that arrives can't be bigger than the one that was checked.
 */
export async function createAssetUpload(
  db: DbOrTx,
  storage: Storage,
  input: {
    kind: AssetKind;
    request: UploadRequest;
    workspaceId: string | null;
    projectId: string | null;
    entityIdentifier: string | null;
    userId: string;
  },
): Promise<{ asset: AssetRow; upload: SignedUpload }> {
  const id = randomUUID();
  const storageKey = input.workspaceId ? `${input.workspaceId}/${id}` : `users/${input.userId}/${id}`;
  const upload = await storage.createUpload(storageKey, {
    maxSize: input.request.size,
    contentType: input.request.mimeType,
  });
  const [asset] = await db
    .insert(fileAssets)
    .values({
      id,
      workspaceId: input.workspaceId,
      projectId: input.projectId,
      entityType: input.kind,
      entityIdentifier: input.entityIdentifier,
      storageKey,
      name: input.request.name,
      size: input.request.size,
      mimeType: input.request.mimeType,
      createdById: input.userId,
      updatedById: input.userId,
    })
    .returning();
  if (!asset) throw new Error("file asset insert failed");
  return { asset, upload };
}

/**
 * What reached the storage for `asset`: its real size, if it is there and within both the
 * kind's limit and the declared size. Anything bigger is deleted and refused.
 */
export async function confirmUpload(storage: Storage, asset: AssetRow): Promise<number> {
  const found = await storage.stat(asset.storageKey);
  if (!found) throw badRequest("The file has not been uploaded yet.", undefined, "UPLOAD_MISSING");
  const limit = ASSET_SIZE_LIMIT[asset.entityType as AssetKind] ?? 0;
  if (found.size > limit || found.size > asset.size) {
    await storage.delete(asset.storageKey);
    const message = found.size > limit ? FILE_TOO_LARGE_MESSAGE : "The uploaded file is larger than declared.";
    throw badRequest(message, { size: [message] }, "FILE_TOO_LARGE");
  }
  return found.size;
}

const ISSUE_LINKED_KINDS = new Set(["ISSUE_ATTACHMENT", "ISSUE_DESCRIPTION", "COMMENT_DESCRIPTION"]);

/**
 * May this project member read this project asset? Files that belong to a work item follow
 * the item: gone with a deleted item, and hidden from a guest who only sees their own items
 * (product-domain §5) unless they uploaded the file themselves.
 */
export async function mayReadProjectAsset(db: DbOrTx, access: ProjectAccess, asset: AssetRow): Promise<boolean> {
  if (!ISSUE_LINKED_KINDS.has(asset.entityType)) return true;
  const restricted = guestSeesOwnOnly(access);
  const issueId = await linkedIssueId(db, asset);
  if (!issueId) return !restricted || asset.createdById === access.user.id;
  const [issue] = await db
    .select({ createdById: issues.createdById })
    .from(issues)
    .where(and(eq(issues.id, issueId), eq(issues.projectId, access.project.id), isNull(issues.deletedAt)))
    .limit(1);
  if (!issue) return false;
  return !restricted || issue.createdById === access.user.id || asset.createdById === access.user.id;
}

/** The work item an asset belongs to: its entity for item kinds, the comment's item for comment images. */
async function linkedIssueId(db: DbOrTx, asset: AssetRow): Promise<string | null> {
  if (!asset.entityIdentifier) return null;
  if (asset.entityType !== "COMMENT_DESCRIPTION") return asset.entityIdentifier;
  const [comment] = await db
    .select({ issueId: issueComments.issueId })
    .from(issueComments)
    .where(eq(issueComments.id, asset.entityIdentifier))
    .limit(1);
  // Images uploaded while writing a new comment may carry the item's id instead.
  return comment?.issueId ?? asset.entityIdentifier;
}

/** Content-Disposition with a plain-ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Response headers for a stored file. Only images and PDFs are shown inline, with their own
 * type; anything else — HTML, SVG, XML, scripts, unknown — is a download of
 * application/octet-stream, so an uploaded page can never run in our origin. nosniff stops
 * browsers guessing otherwise, and the sandboxing CSP covers whatever is opened anyway.
 */
export function servingHeaders(asset: Pick<AssetRow, "mimeType" | "name">, cacheSeconds: number) {
  const inline = INLINE_ASSET_TYPES.includes(asset.mimeType);
  return {
    "content-type": inline ? asset.mimeType : "application/octet-stream",
    "content-disposition": contentDisposition(inline ? "inline" : "attachment", asset.name),
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": `private, max-age=${cacheSeconds}`,
  };
}

/** Send the file: streamed from local disk, or a redirect to a short-lived presigned S3 URL. */
export async function sendAsset(reply: FastifyReply, storage: Storage, asset: AssetRow): Promise<FastifyReply> {
  // A redirect may be reused from the browser cache only while its URL is still valid.
  const headers = servingHeaders(asset, storage.driver === "local" ? 300 : DOWNLOAD_EXPIRES_IN - 60);
  const url = await storage.downloadUrl(asset.storageKey, {
    contentType: headers["content-type"],
    contentDisposition: headers["content-disposition"],
    cacheControl: headers["cache-control"],
    expiresIn: DOWNLOAD_EXPIRES_IN,
  });
  if (url) {
    return reply
      .headers({
        "cache-control": headers["cache-control"],
        "x-content-type-options": "nosniff",
        "content-security-policy": headers["content-security-policy"],
      })
      .redirect(url, 302);
  }
  const file = await storage.open(asset.storageKey);
  if (!file) return reply.status(404).send({ error: "Asset not found", code: "NOT_FOUND" });
  return reply.headers({ ...headers, "content-length": String(file.size) }).send(file.stream);
}
