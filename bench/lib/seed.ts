/**
 * Seeds work items fast: batched multi-row inserts straight into the database the server uses,
 * through the server's own database code (live-server/src/db). On PGlite the server holds the
 * data folder, so seed while it is stopped (`seedStore` opens and closes the folder); on
 * PostgreSQL seeding with the server running is fine.
 *
 * Numbers stay right: one transaction takes N sequence ids by bumping projects.last_sequence_id
 * under its row lock (exactly what the create route does one at a time), so they are gap-free,
 * and the counter ends at the last number handed out.
 */

import { sql } from "drizzle-orm";
import type { Database } from "../../live-server/src/db/client.ts";
import { issueAssignees, issueLabels, issueSubscribers, issues } from "../../live-server/src/db/schema.ts";
import { prng } from "./random.ts";
import type { Store } from "./server.ts";
import type { Fixture } from "./setup.ts";

const PRIORITIES = ["urgent", "high", "medium", "low", "none"] as const;
const BATCH = 500;

export type SeedSpec = {
  workspaceId: string;
  projectId: string;
  count: number;
  /** The project's states; items spread over all of them (completed ones get completed_at). */
  states: { id: string; group: string }[];
  /** Each item gets 0–2 of these. */
  labelIds: string[];
  /** Each item gets 0–2 of these (and they are subscribed, as the create route does). */
  assigneeIds: string[];
  creatorId: string;
  /** PRNG seed: the same seed spreads the same way. */
  seed?: number;
};

export type SeedResult = { firstSequenceId: number; lastSequenceId: number; ms: number };

function pickSome<T>(from: readonly T[], random: () => number, most: number): T[] {
  if (from.length === 0) return [];
  const n = Math.floor(random() * (most + 1));
  const picked = new Set<T>();
  for (let i = 0; i < n; i++) picked.add(from[Math.floor(random() * from.length)] as T);
  return [...picked];
}

const WORDS = ["Fix", "Add", "Refactor", "Document", "Investigate", "Ship", "Review", "Polish", "Migrate", "Test"];
const THINGS = ["login flow", "board", "kanban", "exports", "search", "billing", "settings", "pages", "API", "sync"];

/** Insert `spec.count` work items (+ assignees, labels, subscriptions) in one transaction. */
export async function seedWorkItems(db: Database["db"], spec: SeedSpec): Promise<SeedResult> {
  const started = performance.now();
  const random = prng(spec.seed ?? 42);
  const now = Date.now();
  const result = await db.transaction(async (tx) => {
    const bumped = (await tx.execute(
      sql`update projects set last_sequence_id = last_sequence_id + ${spec.count} where id = ${spec.projectId} returning last_sequence_id`,
    )) as unknown as { rows: { last_sequence_id: number }[] };
    const last = Number(bumped.rows[0]?.last_sequence_id);
    if (!Number.isFinite(last)) throw new Error(`project ${spec.projectId} not found`);
    const first = last - spec.count + 1;

    for (let start = 0; start < spec.count; start += BATCH) {
      const issueRows: (typeof issues.$inferInsert)[] = [];
      const assigneeRows: (typeof issueAssignees.$inferInsert)[] = [];
      const labelRows: (typeof issueLabels.$inferInsert)[] = [];
      const subscriberRows: (typeof issueSubscribers.$inferInsert)[] = [];
      for (let i = start; i < Math.min(start + BATCH, spec.count); i++) {
        const id = crypto.randomUUID();
        const state = spec.states[Math.floor(random() * spec.states.length)];
        const created = new Date(now - (spec.count - i) * 60_000);
        const hasDates = random() < 0.3;
        const startDay = new Date(now + Math.floor((random() - 0.5) * 60) * 86_400_000);
        const targetDay = new Date(startDay.getTime() + Math.floor(random() * 20) * 86_400_000);
        issueRows.push({
          id,
          workspaceId: spec.workspaceId,
          projectId: spec.projectId,
          sequenceId: first + i,
          name: `${WORDS[i % WORDS.length]} ${THINGS[Math.floor(random() * THINGS.length)]} #${first + i}`,
          priority: PRIORITIES[Math.floor(random() * PRIORITIES.length)] as string,
          stateId: state?.id ?? null,
          sortOrder: 65535 + i * 10000,
          startDate: hasDates ? startDay.toISOString().slice(0, 10) : null,
          targetDate: hasDates ? targetDay.toISOString().slice(0, 10) : null,
          completedAt: state?.group === "completed" ? created : null,
          createdAt: created,
          updatedAt: created,
          createdById: spec.creatorId,
          updatedById: spec.creatorId,
        });
        const subscribed = new Set([spec.creatorId]);
        for (const assigneeId of pickSome(spec.assigneeIds, random, 2)) {
          assigneeRows.push({
            issueId: id,
            assigneeId,
            workspaceId: spec.workspaceId,
            projectId: spec.projectId,
            createdById: spec.creatorId,
          });
          subscribed.add(assigneeId);
        }
        for (const labelId of pickSome(spec.labelIds, random, 2)) {
          labelRows.push({
            issueId: id,
            labelId,
            workspaceId: spec.workspaceId,
            projectId: spec.projectId,
            createdById: spec.creatorId,
          });
        }
        for (const subscriberId of subscribed) {
          subscriberRows.push({
            issueId: id,
            subscriberId,
            workspaceId: spec.workspaceId,
            projectId: spec.projectId,
          });
        }
      }
      await tx.insert(issues).values(issueRows);
      if (assigneeRows.length) await tx.insert(issueAssignees).values(assigneeRows);
      if (labelRows.length) await tx.insert(issueLabels).values(labelRows);
      if (subscriberRows.length) await tx.insert(issueSubscribers).values(subscriberRows);
    }
    return { firstSequenceId: first, lastSequenceId: last };
  });
  // Fresh planner statistics, as autovacuum would have after a real load.
  await db.execute(sql`analyze`);
  return { ...result, ms: performance.now() - started };
}

/**
 * Seed `count` work items into a fixture's project, opening the store's database directly
 * (stop the server first on PGlite). Items spread over every state, label, and the admin and
 * members as assignees.
 */
export async function seedStore(store: Store, fixture: Fixture, count: number, seed = 42): Promise<SeedResult> {
  const database = await store.open();
  try {
    return await seedWorkItems(database.db, {
      workspaceId: fixture.workspace.id,
      projectId: fixture.project.id,
      count,
      states: fixture.states,
      labelIds: fixture.labels.map((l) => l.id),
      assigneeIds: [fixture.admin.id, ...fixture.members.map((m) => m.id)],
      creatorId: fixture.admin.id,
      seed,
    });
  } finally {
    await database.close();
  }
}
