/**
 * A board worth measuring: a fresh store and server, the fixture (admin, workspace, project,
 * labels, members) set up through the API, then `items` work items — and optionally many live
 * members with sessions — seeded straight into the database while the server is stopped (PGlite
 * belongs to the running server), and the server started again on the filled store. Shared by
 * the board API, browser and mixed scenarios so they all measure the same board.
 */
import type { BenchContext } from "./scenario.ts";
import { seedStore } from "./seed.ts";
import { seedMembers } from "./seed-members.ts";
import { createStore, type ServerHandle, type Store, startServer } from "./server.ts";
import { type ApiClient, type Fixture, type Member, setupFixture } from "./setup.ts";

export type BoardOptions = {
  /** Names the data folder and database. */
  label: string;
  port: number;
  items: number;
  /** Members signed up through the API (assignees of the seeded items). */
  members: number;
  labels: number;
  /** Extra members seeded with a session each (live clients), beyond `members`. Default 0. */
  liveMembers?: number;
  /** A built client for the server to serve. */
  clientDist?: string;
};

export type Board = {
  store: Store;
  server: ServerHandle;
  fixture: Fixture;
  /** The seeded live members (empty unless `liveMembers`). */
  liveMembers: Member[];
  seedMs: number;
  /** Stop the server and remove the store. */
  dispose(): Promise<void>;
};

export async function seededBoard(ctx: BenchContext, options: BoardOptions): Promise<Board> {
  const start = (store: Store) =>
    startServer(ctx, {
      port: options.port,
      store,
      ...(options.clientDist ? { clientDist: options.clientDist } : {}),
    });
  const store = await createStore(ctx, options.label);
  const first = await start(store);
  const fixture = await setupFixture(first.url, { members: options.members, labels: options.labels, log: ctx.log });
  await first.stop();
  const seeded = await seedStore(store, fixture, options.items);
  ctx.log(`seeded ${options.items} work items in ${Math.round(seeded.ms)} ms`);
  let liveMembers: Member[] = [];
  if (options.liveMembers) {
    const started = performance.now();
    liveMembers = await seedMembers(store, fixture, options.liveMembers);
    ctx.log(`seeded ${liveMembers.length} members with sessions in ${Math.round(performance.now() - started)} ms`);
  }
  const server = await start(store);
  return {
    store,
    server,
    fixture,
    liveMembers,
    seedMs: seeded.ms,
    dispose: async () => {
      await server.stop();
      await store.dispose();
    },
  };
}

/** What the board loads: the grouped list, 50 per group. */
export function groupedListPath(fixture: Fixture): string {
  return `${fixture.projectPath}/issues/?group_by=state_id&order_by=sort_order&per_page=50`;
}

/** The admin's session as raw request headers (autocannon sends them as given). */
export function adminHeaders(fixture: Fixture, server: ServerHandle): Record<string, string> {
  return { cookie: fixture.admin.cookie, origin: server.url, "x-forwarded-for": fixture.admin.api.forwardedFor };
}

/** The ids of the first `count` work items in board order (they exist, are visible and not archived). */
export async function firstItemIds(api: ApiClient, projectPath: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let pageIndex = 0; ids.length < count; pageIndex++) {
    const page = await api.get<{ results: { id: string }[] }>(
      `${projectPath}/issues/?order_by=sort_order&cursor=100:${pageIndex}:0`,
    );
    if (page.results.length === 0) break;
    ids.push(...page.results.slice(0, count - ids.length).map((i) => i.id));
  }
  return ids;
}
