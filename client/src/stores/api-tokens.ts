/**
 * The caller's personal API tokens in a workspace (Settings → API tokens, admins): the list,
 * create (the secret comes only in that answer and is handed to the screen that shows it once,
 * never kept here) and delete.
 */
import { api } from "../lib/api";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";

/** The reference's IApiToken. */
export type ApiToken = {
  id: string;
  label: string;
  description: string;
  is_active: boolean;
  last_used: string | null;
  expired_at: string | null;
  user: string;
  user_type: number;
  workspace: string;
  created_at: string;
  updated_at: string;
};

export type ApiTokenWithSecret = ApiToken & { token: string };

export type ApiTokenInput = { label: string; description: string; expired_at: string | null };

export const apiTokensStore = defineStore(() => ({
  /** Per workspace slug, newest first (undefined until read). */
  bySlug: {} as Record<string, ApiToken[] | undefined>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/api-tokens/`;

/** Read the caller's tokens in the workspace. */
export async function loadApiTokens(slug: string): Promise<void> {
  apiTokensStore.bySlug[slug] = await api.get(base(slug)).json<ApiToken[]>();
}

/** Create a token; answers it with its secret (to show once). Throws the server's refusal. */
export async function createApiToken(slug: string, input: ApiTokenInput): Promise<ApiTokenWithSecret> {
  const created = await api.post(base(slug), { json: input }).json<ApiTokenWithSecret>();
  const { token: _secret, ...row } = created;
  apiTokensStore.bySlug[slug] = [row, ...(apiTokensStore.bySlug[slug] ?? []).filter((t) => t.id !== row.id)];
  return created;
}

/** Delete (revoke) a token at once; put back with a toast if the server refuses. */
export async function deleteApiToken(slug: string, id: string, error: string): Promise<boolean> {
  const done = await optimistic({
    apply: () => {
      const before = apiTokensStore.bySlug[slug];
      apiTokensStore.bySlug[slug] = before?.filter((t) => t.id !== id);
      return () => {
        apiTokensStore.bySlug[slug] = before;
      };
    },
    call: async () => {
      await api.delete(`${base(slug)}${id}/`);
      return true;
    },
    error,
  });
  return done === true;
}
