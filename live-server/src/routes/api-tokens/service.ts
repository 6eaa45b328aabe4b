/**
 * API tokens: a member's personal keys for the public API (public-api/), one workspace each.
 * The secret is "tideline_api_" + 32 random bytes (base64url); only its sha256 is stored, so
 * a lookup by hash is the check (no timing to compare) and a stolen database holds no key.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { randomToken, sha256 } from "../../auth/crypto.ts";
import type { DbOrTx } from "../../db/client.ts";
import { apiTokens } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import type { ApiTokenRow } from "./presenter.ts";
import type { CreateApiTokenBody } from "./schema.ts";

export const API_TOKEN_PREFIX = "tideline_api_";

/** Create a token for the caller in this workspace; answers the row and the secret (shown once). */
export async function createApiToken(
  db: DbOrTx,
  ws: WorkspaceAccess,
  body: CreateApiTokenBody,
): Promise<{ row: ApiTokenRow; secret: string }> {
  const secret = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      label: body.label ?? randomUUID().replaceAll("-", ""),
      description: body.description,
      tokenHash: sha256(secret),
      expiredAt: body.expired_at,
      userId: ws.user.id,
      userType: ws.user.isBot ? 1 : 0,
      workspaceId: ws.workspace.id,
      createdById: ws.user.id,
      updatedById: ws.user.id,
    })
    .returning();
  if (!row) throw new Error("api token insert failed");
  return { row, secret };
}

/** The caller's own tokens in this workspace, newest first. */
export async function listApiTokens(db: DbOrTx, ws: WorkspaceAccess): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.workspaceId, ws.workspace.id), eq(apiTokens.userId, ws.user.id)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** One of the caller's own tokens in this workspace, or 404 (someone else's is 404 too). */
export async function getApiToken(db: DbOrTx, ws: WorkspaceAccess, id: string): Promise<ApiTokenRow> {
  if (!isUuid(id)) throw notFound("API token");
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.workspaceId, ws.workspace.id), eq(apiTokens.userId, ws.user.id)))
    .limit(1);
  if (!row) throw notFound("API token");
  return row;
}

/** Delete (revoke) one of the caller's tokens: the next call made with it is a 401. */
export async function deleteApiToken(db: DbOrTx, ws: WorkspaceAccess, id: string): Promise<void> {
  const row = await getApiToken(db, ws, id);
  await db.delete(apiTokens).where(eq(apiTokens.id, row.id));
}
