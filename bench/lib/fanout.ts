/**
 * Live fan-out measurement, shared by the scenarios that watch events reach many clients:
 * - `subscribeClients`: N simulated tabs (one HocuspocusProviderWebsocket + HocuspocusProvider
 *   each, all in the bench process, outside the server) on one channel, noting when each
 *   `issue.updated` event carrying one of our client mutation ids arrives;
 * - `sendPatches`: work-item PATCHes on a fixed schedule (open loop: a slow answer doesn't delay
 *   the next one), each with its own `x-client-mutation-id`;
 * - `awaitEvents` then `fanoutLatencies`: the arrivals reduced to latencies per (client, PATCH)
 *   pair and per PATCH (first and last subscriber).
 */
import { type DomainEvent, parseLiveStateless } from "@tideline/shared";
import { max, sleep } from "./scenario.ts";
import type { ServerHandle } from "./server.ts";
import { type ApiClient, liveClient, type Member, mapLimit, type OpenedDocument, openDocument } from "./setup.ts";

const MUTATION_PREFIX = "bench-fanout-";

export type Subscriber = {
  opened: OpenedDocument;
  destroy(): void;
  /** Arrival times (performance.now()) per PATCH index. */
  arrivals: Map<number, number[]>;
};

export type Subscription = {
  subscribers: Subscriber[];
  /** Refusal reason → how many clients got it. */
  refusals: Map<string, number>;
  refused: number;
  connectMs: number;
};

/**
 * `clients` subscribers of `channel`, spread round-robin over `servers` and `people` (20
 * connecting at a time); refused clients are counted, not hidden.
 */
export async function subscribeClients(options: {
  servers: ServerHandle[];
  people: Member[];
  /** Who connects when `people` is empty. */
  fallback: Member;
  channel: string;
  clients: number;
}): Promise<Subscription> {
  const { servers, people, fallback, channel } = options;
  const subscribers: Subscriber[] = [];
  const refusals = new Map<string, number>();
  const started = performance.now();
  await mapLimit(
    Array.from({ length: options.clients }, (_, i) => i),
    20,
    async (i) => {
      const server = servers[i % servers.length] as ServerHandle;
      const member = people[i % people.length] ?? fallback;
      const socket = liveClient(server.url, member.cookie);
      try {
        const opened = await openDocument(socket, channel);
        const arrivals = new Map<number, number[]>();
        opened.provider.on("stateless", ({ payload }: { payload: string }) => {
          const now = performance.now();
          const event: DomainEvent | undefined = parseLiveStateless(payload)?.event;
          const id = event?.client_mutation_id;
          if (event?.type !== "issue.updated" || !id?.startsWith(MUTATION_PREFIX)) return;
          const n = Number(id.slice(MUTATION_PREFIX.length));
          const list = arrivals.get(n);
          if (list) list.push(now);
          else arrivals.set(n, [now]);
        });
        subscribers.push({
          opened,
          arrivals,
          destroy: () => {
            opened.provider.destroy();
            socket.destroy();
          },
        });
      } catch (error) {
        socket.destroy();
        const reason = String(error instanceof Error ? error.message : error).replace(/^.*refused: /, "");
        refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
      }
    },
  );
  const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
  return { subscribers, refusals, refused, connectMs: performance.now() - started };
}

export type PatchRun = {
  /** The PATCH indices of this run (`first` … `first + count - 1`); arrivals are keyed by them. */
  indices: number[];
  /** Request start and response end (performance.now()) per index; missing when it threw. */
  sentAt: Map<number, number>;
  answeredAt: Map<number, number>;
  /** Indices answered with an error status (no event expected). */
  failed: Set<number>;
  ms: number;
};

/** The PATCHes that succeeded: each should reach every subscriber once. */
function succeeded(run: PatchRun): number[] {
  return run.indices.filter((n) => run.answeredAt.has(n) && !run.failed.has(n));
}

/**
 * `count` PATCHes renaming `items` in turn, evenly over `seconds` (open loop), spread
 * round-robin over `apis` (one per server instance). Indices start at `first`, so several runs
 * against the same subscribers stay apart.
 */
export async function sendPatches(options: {
  apis: ApiClient[];
  projectPath: string;
  items: string[];
  count: number;
  seconds: number;
  first?: number;
}): Promise<PatchRun> {
  const { apis, projectPath, items, count } = options;
  const first = options.first ?? 0;
  const run: PatchRun = { indices: [], sentAt: new Map(), answeredAt: new Map(), failed: new Set(), ms: 0 };
  const started = performance.now();
  const interval = (options.seconds * 1000) / count;
  await Promise.all(
    Array.from({ length: count }, async (_, k) => {
      const n = first + k;
      run.indices.push(n);
      const wait = started + k * interval - performance.now();
      if (wait > 1) await sleep(wait);
      const api = apis[n % apis.length] as ApiClient;
      const item = items[n % items.length] as string;
      run.sentAt.set(n, performance.now());
      const response = await api.raw("PATCH", `${projectPath}/issues/${item}/`, {
        body: JSON.stringify({ name: `Fan-out ${(n % items.length) + 1} · ${n}` }),
        headers: { "content-type": "application/json", "x-client-mutation-id": `${MUTATION_PREFIX}${n}` },
      });
      await response.arrayBuffer();
      run.answeredAt.set(n, performance.now());
      if (!response.ok) run.failed.add(n);
    }),
  );
  run.indices.sort((a, b) => a - b);
  run.ms = performance.now() - started;
  return run;
}

/** Wait until every subscriber has every answered PATCH's event (or `timeoutMs`), then a little for late duplicates. */
export async function awaitEvents(subscribers: Subscriber[], run: PatchRun, timeoutMs = 15_000): Promise<void> {
  const wanted = succeeded(run);
  const expected = subscribers.length * wanted.length;
  const arrived = () => subscribers.reduce((sum, s) => sum + wanted.filter((n) => s.arrivals.has(n)).length, 0);
  const deadline = performance.now() + timeoutMs;
  while (arrived() < expected && performance.now() < deadline) await sleep(50);
  await sleep(500);
}

export type FanoutLatencies = {
  /** Per (client, PATCH): arrival minus the PATCH's response (usually negative on one instance). */
  fromResponse: number[];
  /** Per (client, PATCH): arrival minus the PATCH request's start. */
  fromRequest: number[];
  /** Per PATCH: the last subscriber's arrival minus the request's start — request → Nth subscriber. */
  toLastSubscriber: number[];
  /** Per PATCH: last arrival minus first — the cost of the fan-out itself. */
  spread: number[];
  /** Successful PATCHes' response times (request start → response end). */
  response: number[];
  beforeResponse: number;
  /** (client, PATCH) pairs with no event, and with more than one. */
  lost: number;
  doubled: number;
  /** Pairs expected: successful PATCHes × subscribers. */
  expected: number;
};

export function fanoutLatencies(subscribers: Subscriber[], run: PatchRun): FanoutLatencies {
  const answered = succeeded(run);
  const out: FanoutLatencies = {
    fromResponse: [],
    fromRequest: [],
    toLastSubscriber: [],
    spread: [],
    response: answered.map((n) => (run.answeredAt.get(n) as number) - (run.sentAt.get(n) as number)),
    beforeResponse: 0,
    lost: 0,
    doubled: 0,
    expected: subscribers.length * answered.length,
  };
  for (const n of answered) {
    const firsts = subscribers.map((s) => s.arrivals.get(n)?.[0]).filter((t): t is number => t !== undefined);
    if (firsts.length > 1) out.spread.push(max(firsts) - firsts.reduce((a, b) => Math.min(a, b)));
    // Only a PATCH every subscriber saw has a "last subscriber"; the lost ones are counted below.
    if (firsts.length === subscribers.length && firsts.length > 0) {
      out.toLastSubscriber.push(max(firsts) - (run.sentAt.get(n) as number));
    }
  }
  for (const s of subscribers) {
    for (const n of answered) {
      const times = s.arrivals.get(n);
      if (!times || times.length === 0) {
        out.lost++;
        continue;
      }
      if (times.length > 1) out.doubled++;
      const at = times[0] as number;
      const latency = at - (run.answeredAt.get(n) as number);
      if (latency < 0) out.beforeResponse++;
      out.fromResponse.push(latency);
      out.fromRequest.push(at - (run.sentAt.get(n) as number));
    }
  }
  return out;
}
