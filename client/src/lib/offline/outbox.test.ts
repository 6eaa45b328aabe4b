import "fake-indexeddb/auto";
import { HTTPError, NetworkError } from "ky";
import { afterEach, describe, expect, it } from "vitest";
import { type NewOutboxEntry, Outbox, type OutboxEntry, type OutboxSend } from "./outbox";

/**
 * A stand-in for the server's side of the contract the outbox relies on: it applies a client
 * mutation id once and answers a repeated id with the first answer (the real one is
 * live-server/src/services/client-mutations.ts, tested against a real database there).
 */
class Server {
  readonly applied: string[] = [];
  readonly answers = new Map<string, unknown>();
  readonly calls: { mutationId: string; url: string }[] = [];
  /** Next outcomes to force, by url: "offline" (no answer), "lost" (applied, answer lost), or a status. */
  readonly outcomes = new Map<string, ("offline" | "lost" | number)[]>();
  private nextId = 1;

  send: OutboxSend = async (entry) => {
    this.calls.push({ mutationId: entry.mutationId, url: entry.url });
    const forced = this.outcomes.get(entry.url)?.shift();
    if (forced === "offline") throw new NetworkError(new Request(`http://x${entry.url}`));
    if (typeof forced === "number") {
      throw new HTTPError(
        new Response(JSON.stringify({ error: "Refused" }), { status: forced }),
        new Request(`http://x${entry.url}`),
        {} as ConstructorParameters<typeof HTTPError>[2],
      );
    }
    const earlier = this.answers.get(entry.mutationId);
    if (earlier) return earlier;
    this.applied.push(entry.mutationId);
    const answer =
      entry.method === "POST" ? { id: `real-${this.nextId++}`, ...entry.body } : { id: entry.target, ...entry.body };
    this.answers.set(entry.mutationId, answer);
    if (forced === "lost") throw new NetworkError(new Request(`http://x${entry.url}`));
    return answer;
  };
}

let online = true;
let counter = 0;
const users: string[] = [];
const boxes: Outbox[] = [];

function newOutbox(server: Server): Outbox {
  const box = new Outbox({ send: server.send, isOnline: () => online });
  boxes.push(box);
  return box;
}

function newUser(): string {
  const id = `user-${++counter}`;
  users.push(id);
  return id;
}

function update(target: string, name: string): NewOutboxEntry {
  return {
    kind: "test.update",
    mutationId: `m-${++counter}`,
    method: "PATCH",
    url: `/items/${target}/`,
    body: { name },
    target,
    label: `Rename ${target}`,
    data: {},
  };
}

function create(tempId: string, name: string): NewOutboxEntry {
  return { ...update(tempId, name), kind: "test.create", method: "POST", url: "/items/", label: `Create ${name}` };
}

type Log = { applied: string[]; refused: string[]; restored: string[] };

function watch(box: Outbox): Log {
  const log: Log = { applied: [], refused: [], restored: [] };
  for (const kind of ["test.update", "test.create"]) {
    box.register(kind, {
      applied: (entry: OutboxEntry, answer) => {
        log.applied.push(entry.mutationId);
        const created = answer as { id: string };
        if (kind === "test.create") void box.retarget(entry.target, created.id);
      },
      refused: async (entry: OutboxEntry) => {
        log.refused.push(entry.mutationId);
        if (kind === "test.create") await box.discard(entry.target);
      },
      restored: (entry: OutboxEntry) => log.restored.push(entry.mutationId),
    });
  }
  return log;
}

async function stored(userId: string): Promise<OutboxEntry[]> {
  const check = new Outbox({ send: async () => null, isOnline: () => false });
  await check.start(userId);
  const entries = [...check.waiting];
  check.close();
  return entries;
}

afterEach(() => {
  for (const box of boxes.splice(0)) box.close();
  online = true;
});

describe("Outbox", () => {
  it("keeps changes made offline and sends them in order, each once, when the network is back", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    const user = newUser();
    await box.start(user);
    online = false;
    const a = await box.enqueue(update("i1", "one"));
    const b = await box.enqueue(update("i2", "two"));
    const c = await box.enqueue(update("i1", "three"));
    expect(box.shouldQueue()).toBe(true);
    await box.flush();
    expect(server.calls).toHaveLength(0);
    expect(box.waiting.map((e) => e.mutationId)).toEqual([a.mutationId, b.mutationId, c.mutationId]);

    online = true;
    await Promise.all([box.flush(), box.flush()]);
    expect(server.applied).toEqual([a.mutationId, b.mutationId, c.mutationId]);
    expect(server.calls).toHaveLength(3);
    expect(log.applied).toEqual([a.mutationId, b.mutationId, c.mutationId]);
    expect(box.waiting).toHaveLength(0);
    expect(box.shouldQueue()).toBe(false);
    expect(await stored(user)).toHaveLength(0);
  });

  it("sends a change whose answer was lost again with the same id, and the server applies it once", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    await box.start(newUser());
    const entry = update("i1", "renamed");
    server.outcomes.set(entry.url, ["lost"]);
    await box.enqueue(entry);
    await box.flush();
    // Applied on the server, but the page never heard: it still waits.
    expect(server.applied).toEqual([entry.mutationId]);
    expect(box.waiting).toHaveLength(1);
    expect(log.applied).toEqual([]);

    await box.flush();
    expect(server.calls.map((c) => c.mutationId)).toEqual([entry.mutationId, entry.mutationId]);
    expect(server.applied).toEqual([entry.mutationId]);
    expect(log.applied).toEqual([entry.mutationId]);
    expect(box.waiting).toHaveLength(0);
  });

  it("stops at a change that gets no answer and keeps the ones behind it waiting", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    await box.start(newUser());
    const first = update("i1", "a");
    const second = update("i2", "b");
    server.outcomes.set(first.url, ["offline"]);
    online = false;
    await box.enqueue(first);
    await box.enqueue(second);
    online = true;
    await box.flush();
    expect(server.calls.map((c) => c.mutationId)).toEqual([first.mutationId]);
    expect(box.waiting).toHaveLength(2);
    await box.flush();
    expect(log.applied).toEqual([first.mutationId, second.mutationId]);
  });

  it("rolls back a refused change through its handler and goes on with the next", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    await box.start(newUser());
    online = false;
    const refused = await box.enqueue(update("gone", "x"));
    const next = await box.enqueue(update("i2", "y"));
    server.outcomes.set(refused.url, [404]);
    online = true;
    await box.flush();
    expect(log.refused).toEqual([refused.mutationId]);
    expect(log.applied).toEqual([next.mutationId]);
    expect(box.waiting).toHaveLength(0);
  });

  it("counts a server error as refused only after three in a row", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    await box.start(newUser());
    const entry = update("i1", "x");
    server.outcomes.set(entry.url, [500, 500, 500]);
    await box.enqueue(entry);
    await box.flush();
    await box.flush();
    expect(log.refused).toEqual([]);
    expect(box.waiting[0]?.attempts).toBe(2);
    await box.flush();
    expect(log.refused).toEqual([entry.mutationId]);
  });

  it("survives a reload: the next page shows the waiting changes again and sends them in order", async () => {
    const server = new Server();
    const user = newUser();
    online = false;
    const before = newOutbox(server);
    watch(before);
    await before.start(user);
    const a = await before.enqueue(update("i1", "one"));
    const b = await before.enqueue(update("i2", "two"));
    before.close();

    const after = newOutbox(server);
    const log = watch(after);
    await after.start(user);
    expect(log.restored).toEqual([a.mutationId, b.mutationId]);
    expect(after.waiting.map((e) => e.url)).toEqual([a.url, b.url]);
    online = true;
    await after.flush();
    expect(server.applied).toEqual([a.mutationId, b.mutationId]);
    expect(await stored(user)).toHaveLength(0);
  });

  it("keeps changes queued before the database opened, after the stored ones", async () => {
    const server = new Server();
    const user = newUser();
    online = false;
    const first = newOutbox(server);
    watch(first);
    await first.start(user);
    const old = await first.enqueue(update("i1", "old"));
    first.close();

    const page = newOutbox(server);
    watch(page);
    const early = await page.enqueue(update("i2", "early"));
    await page.start(user);
    expect(page.waiting.map((e) => e.mutationId)).toEqual([old.mutationId, early.mutationId]);
    expect((await stored(user)).map((e) => e.mutationId)).toEqual([old.mutationId, early.mutationId]);
  });

  it("an item created offline takes its real id: its later edits follow it", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    const user = newUser();
    await box.start(user);
    online = false;
    const made = await box.enqueue(create("temp-1", "New"));
    const edit = await box.enqueue(update("temp-1", "New, renamed"));
    online = true;
    await box.flush();
    expect(log.applied).toEqual([made.mutationId, edit.mutationId]);
    expect(server.calls.map((c) => c.url)).toEqual(["/items/", "/items/real-1/"]);
  });

  it("an offline create the server refuses takes its waiting edits with it", async () => {
    const server = new Server();
    const box = newOutbox(server);
    const log = watch(box);
    await box.start(newUser());
    online = false;
    const made = await box.enqueue(create("temp-2", ""));
    await box.enqueue(update("temp-2", "renamed"));
    const other = await box.enqueue(update("i9", "other"));
    server.outcomes.set("/items/", [400]);
    online = true;
    await box.flush();
    expect(log.refused).toEqual([made.mutationId]);
    expect(log.applied).toEqual([other.mutationId]);
    expect(server.calls.map((c) => c.url)).toEqual(["/items/", "/items/i9/"]);
  });

  it("forget (sign-out) deletes the user's waiting changes", async () => {
    const server = new Server();
    const box = newOutbox(server);
    watch(box);
    const user = newUser();
    await box.start(user);
    online = false;
    await box.enqueue(update("i1", "x"));
    await box.forget();
    expect(box.waiting).toHaveLength(0);
    expect(await stored(user)).toHaveLength(0);
  });

  it("one outbox per user: another user never sees the first one's changes", async () => {
    const server = new Server();
    const box = newOutbox(server);
    watch(box);
    const first = newUser();
    const second = newUser();
    await box.start(first);
    online = false;
    await box.enqueue(update("i1", "x"));
    await box.start(second);
    expect(box.waiting).toHaveLength(0);
    expect(await stored(first)).toHaveLength(1);
  });
});
