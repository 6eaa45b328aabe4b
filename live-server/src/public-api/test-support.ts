/** Fixtures of the public API tests: tokens for the world's people and an X-API-Key client. */
import type { DomainEvent } from "@tideline/shared";
import type { FastifyInstance, InjectOptions } from "fastify";
import { expect } from "vitest";
import { client, type TestApp, type TestUser } from "../../test/harness.ts";
import { randomToken, sha256 } from "../auth/crypto.ts";
import { apiTokens } from "../db/schema.ts";

/** A token of `user` in workspace `workspaceId`, written as the create call writes it. */
export async function tokenFor(
  t: TestApp,
  user: TestUser,
  workspaceId: string,
  extra: { expiredAt?: Date | null } = {},
): Promise<{ id: string; key: string }> {
  const key = `tideline_api_${randomToken(32)}`;
  const [row] = await t.db
    .insert(apiTokens)
    .values({
      label: "test",
      tokenHash: sha256(key),
      userId: user.id,
      workspaceId,
      expiredAt: extra.expiredAt ?? null,
    })
    .returning();
  if (!row) throw new Error("token insert failed");
  return { id: row.id, key };
}

/** A token made through POST /api-tokens/ as a workspace admin (the real path). */
export async function tokenThroughApi(t: TestApp, admin: TestUser, slug: string): Promise<{ id: string; key: string }> {
  const res = await client(t.app, admin).post(`/api/workspaces/${slug}/api-tokens/`, { label: "via api" });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id, key: res.json().token };
}

type Body = InjectOptions["payload"];

/** Calls with an API key (no cookie, no Origin, as a script calls). */
export function v1(app: FastifyInstance, key: string | null, headers: Record<string, string> = {}) {
  const call = (method: InjectOptions["method"], url: string, payload?: Body) =>
    app.inject({ method, url, payload, headers: { ...(key ? { "x-api-key": key } : {}), ...headers } });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, body?: Body) => call("POST", url, body ?? {}),
    patch: (url: string, body?: Body) => call("PATCH", url, body ?? {}),
    delete: (url: string) => call("DELETE", url),
  };
}

/** The events published while `work` runs. */
export async function eventsDuring(t: TestApp, work: () => Promise<unknown>): Promise<DomainEvent[]> {
  const seen: DomainEvent[] = [];
  const off = t.app.ctx.events.subscribe((e) => {
    seen.push(e);
  });
  try {
    await work();
  } finally {
    off();
  }
  return seen;
}
