/**
 * Many project members with sessions, fast: rows inserted straight into the server's database
 * (users, profiles, workspace and project memberships, sessions holding the SHA-256 of a fresh
 * token, as auth/sessions.ts creates them), in batches, through the server's own schema. Signing
 * 500 users up through the HTML form costs a scrypt hash each — minutes on a busy 2-core box —
 * and nothing the live layer does depends on how a member was created: it authenticates the
 * cookie and checks the memberships, which are exactly these rows.
 *
 * On PGlite the server holds the data folder: seed while it is stopped (like seedStore). On
 * PostgreSQL the server may run.
 */
import { randomToken, sha256 } from "../../live-server/src/auth/crypto.ts";
import { SESSION_COOKIE, SESSION_TTL_MS } from "../../live-server/src/auth/sessions.ts";
import { projectMembers, sessions, userProfiles, users, workspaceMembers } from "../../live-server/src/db/schema.ts";
import type { Store } from "./server.ts";
import { ApiClient, type Fixture, type Member } from "./setup.ts";

const BATCH = 250;

/** `count` members (role member) of the fixture's workspace and project, each with a session. */
export async function seedMembers(store: Store, fixture: Fixture, count: number): Promise<Member[]> {
  if (count <= 0) return [];
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const database = await store.open();
  const members: Member[] = [];
  try {
    await database.db.transaction(async (tx) => {
      for (let start = 0; start < count; start += BATCH) {
        const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => {
          const n = start + k + 1;
          return {
            id: crypto.randomUUID(),
            n,
            email: `seeded-${n}-${runId}@bench.example.com`,
            token: randomToken(32),
          };
        });
        await tx.insert(users).values(
          rows.map((r) => ({
            id: r.id,
            email: r.email,
            firstName: "Member",
            lastName: String(r.n),
            displayName: `member${r.n}`,
            isEmailVerified: true,
          })),
        );
        await tx.insert(userProfiles).values(
          rows.map((r) => ({
            userId: r.id,
            isOnboarded: true,
            lastWorkspaceId: fixture.workspace.id,
            onboardingStep: {
              workspace_join: true,
              profile_complete: true,
              workspace_create: true,
              workspace_invite: true,
            },
          })),
        );
        await tx
          .insert(workspaceMembers)
          .values(rows.map((r) => ({ workspaceId: fixture.workspace.id, memberId: r.id, role: 15 })));
        await tx.insert(projectMembers).values(
          rows.map((r) => ({
            workspaceId: fixture.workspace.id,
            projectId: fixture.project.id,
            memberId: r.id,
            role: 15,
          })),
        );
        await tx.insert(sessions).values(
          rows.map((r) => ({
            tokenHash: sha256(r.token),
            userId: r.id,
            expiresAt: new Date(Date.now() + SESSION_TTL_MS),
          })),
        );
        for (const r of rows) {
          const api = new ApiClient(fixture.url);
          api.cookies.set(SESSION_COOKIE, r.token);
          members.push({ id: r.id, email: r.email, api, cookie: `${SESSION_COOKIE}=${r.token}` });
        }
      }
    });
  } finally {
    await database.close();
  }
  return members;
}
