/** How an API token appears in answers: the reference's IApiToken (packages/types/src/api_token.ts). */
import type { apiTokens } from "../../db/schema.ts";

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** True while the token may be used: not switched off and not past its expiry. */
export function tokenIsActive(row: Pick<ApiTokenRow, "isActive" | "expiredAt">, now = new Date()): boolean {
  return row.isActive && (row.expiredAt === null || row.expiredAt > now);
}

/** The token without its secret (list, detail); `token` only in the create answer. */
export function presentApiToken(row: ApiTokenRow, secret?: string) {
  return {
    id: row.id,
    label: row.label,
    description: row.description,
    is_active: tokenIsActive(row),
    last_used: row.lastUsed?.toISOString() ?? null,
    expired_at: row.expiredAt?.toISOString() ?? null,
    user: row.userId,
    user_type: row.userType,
    workspace: row.workspaceId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_by: row.createdById,
    updated_by: row.updatedById,
    ...(secret ? { token: secret } : {}),
  };
}

export type PresentedApiToken = ReturnType<typeof presentApiToken>;
