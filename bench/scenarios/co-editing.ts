/**
 * Scenario 3 — co-editing. 20 editors in one page, each making 5 edits a second for 30 s, run
 * twice in the same process with the same seed and the same measurement code:
 *
 * - ours: a page created over REST on a real Tideline server (child process); each editor is a
 *   member of the project with a session of their own and a real @hocuspocus/provider on /live
 *   (one WebSocket per editor, like one browser tab each);
 * - peer: the reference Yjs server, `@y/websocket-server` (child process; with its LevelDB
 *   persistence by default, since ours stores every update before acknowledging it), with
 *   minimal y-websocket clients (bench/lib/yjs-peer.ts) starting from the very same Yjs state.
 *
 * An edit inserts a unique token `[editor.n]` at a random place (never inside another token)
 * in a random paragraph's Y.XmlText — the structure tiptap's Collaboration keeps. Each client
 * watches its copy and notes, for every token another editor inserted, when it first arrives;
 * the latency is arrival minus the moment the edit was made (one clock: every client lives in
 * the bench process). At the end every copy (and a fresh client's) must hold the same text.
 * Server CPU is the child's utime+stime over the edit phase; memory is its VmRSS, sampled.
 */
import { DOCUMENT_FIELD, pageDocumentName } from "@tideline/shared";
import * as Y from "yjs";
import { prng } from "../lib/random.ts";
import {
  type BenchContext,
  type Figure,
  figures,
  max,
  median,
  numberFlag,
  percentile,
  type Scenario,
  sleep,
  stringFlag,
} from "../lib/scenario.ts";
import { createStore, startServer } from "../lib/server.ts";
import { liveClient, mapLimit, openDocument, setupFixture } from "../lib/setup.ts";
import { startPeerServer, YWebsocketClient } from "../lib/yjs-peer.ts";
import { plainText, textsOf } from "../lib/yjs-text.ts";

const TOKEN = /\[(\d+)\.(\d+)\]/g;

/** One editor's copy of the page, whichever server it talks to. */
type Editor = {
  doc: Y.Doc;
  /** Local changes the server has not acknowledged (always 0 for y-websocket: no acks). */
  unsynced(): number;
  /** Why the server closed this editor's document, if it did. */
  closed(): string | null;
  destroy(): void;
};

type Target = {
  name: "ours" | "peer";
  label: string;
  /** Open the page for editor `index`, synced. */
  connect(index: number): Promise<Editor>;
  rssBytes(): number;
  cpuSeconds(): number;
};

type Workload = { editors: number; rate: number; seconds: number; seed: number };

type Outcome = {
  latencies: number[];
  expected: number;
  received: number;
  doubled: number;
  edits: number;
  /** All editors' copies and a fresh client's copy hold the same text. */
  equal: boolean;
  /** From the last edit until every client had every edit (NaN if never). */
  convergeMs: number;
  cpuPercent: number;
  rssIdleBytes: number;
  rssPeakBytes: number;
  loadGenCpuPercent: number;
  textChars: number;
};

/** A random offset in `s` that is not inside a token (so no token is ever split). */
function insertionPoint(s: string, random: () => number): number {
  const at = Math.floor(random() * (s.length + 1));
  const open = s.lastIndexOf("[", at - 1);
  const close = s.lastIndexOf("]", at - 1);
  return open > close ? open : at;
}

async function runWorkload(ctx: BenchContext, target: Target, work: Workload): Promise<Outcome> {
  const rssIdleBytes = target.rssBytes();
  const editors = await mapLimit(
    Array.from({ length: work.editors }, (_, i) => i),
    5,
    (i) => target.connect(i),
  );
  ctx.log(`${target.name}: ${editors.length} editors synced`);

  const sentAt = new Map<string, number>();
  const seen = editors.map(() => new Map<string, number>());
  const latencies: number[] = [];
  let lastArrival = 0;
  editors.forEach((editor, i) => {
    const mine = seen[i] as Map<string, number>;
    editor.doc.getXmlFragment(DOCUMENT_FIELD).observeDeep((events, transaction) => {
      if (transaction.local) return;
      const now = performance.now();
      for (const event of events) {
        if (!(event.target instanceof Y.XmlText)) continue;
        for (const op of event.delta) {
          if (typeof op.insert !== "string") continue;
          for (const match of op.insert.matchAll(TOKEN)) {
            const token = match[0];
            const count = (mine.get(token) ?? 0) + 1;
            mine.set(token, count);
            if (count > 1) continue;
            const sent = sentAt.get(token);
            if (sent !== undefined) latencies.push(now - sent);
            lastArrival = now;
          }
        }
      }
    });
  });

  const perEditor = Math.round(work.rate * work.seconds);
  const interval = 1000 / work.rate;
  let peakRss = target.rssBytes();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, target.rssBytes());
  }, 200);
  const cpuStart = target.cpuSeconds();
  const ownStart = process.cpuUsage();
  const started = performance.now();
  let lastEdit = started;
  let edits = 0;
  let failure: string | null = null;

  await Promise.all(
    editors.map(async (editor, i) => {
      const random = prng(work.seed * 1000 + i);
      const texts = textsOf(editor.doc);
      const phase = random() * interval;
      for (let n = 0; n < perEditor; n++) {
        const due = started + phase + n * interval;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const reason = editor.closed();
        if (reason) {
          failure ??= `editor ${i} was closed: ${reason}`;
          return;
        }
        const text = texts[Math.floor(random() * texts.length)] as Y.XmlText;
        const token = `[${i}.${n}]`;
        const at = insertionPoint(text.toString(), random);
        sentAt.set(token, performance.now());
        editor.doc.transact(() => text.insert(at, token));
        edits++;
        lastEdit = performance.now();
      }
    }),
  );
  if (failure) ctx.log(`${target.name}: ${failure}`);
  const expected = edits * (work.editors - 1);
  const received = () =>
    seen.reduce((sum, m, i) => sum + [...m.keys()].filter((t) => !t.startsWith(`[${i}.`)).length, 0);
  // Every edit acknowledged (ours) and delivered to every other editor, or 30 s.
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    if (editors.every((e) => e.unsynced() === 0) && received() >= expected) break;
    await sleep(50);
  }
  const delivered = received();
  const convergeMs = delivered >= expected ? Math.max(0, lastArrival - lastEdit) : Number.NaN;
  const elapsed = (performance.now() - started) / 1000;
  const cpuPercent = ((target.cpuSeconds() - cpuStart) / elapsed) * 100;
  const own = process.cpuUsage(ownStart);
  const loadGenCpuPercent = ((own.user + own.system) / 1e6 / elapsed) * 100;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, target.rssBytes());

  // Every copy equal: the editors', and a fresh client's (what the server holds).
  const reference = plainText((editors[0] as Editor).doc);
  let equal = editors.every((e) => plainText(e.doc) === reference);
  const fresh = await target.connect(0);
  await sleep(200);
  equal &&= plainText(fresh.doc) === reference;
  fresh.destroy();

  let doubled = 0;
  for (const m of seen) for (const count of m.values()) if (count > 1) doubled++;
  for (const editor of editors) editor.destroy();
  ctx.log(
    `${target.name}: ${edits} edits, ${delivered}/${expected} deliveries, median ${median(latencies).toFixed(1)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(1)} ms, server CPU ${cpuPercent.toFixed(0)} %, copies ${equal ? "equal" : "DIFFER"}`,
  );
  return {
    latencies,
    expected,
    received: delivered,
    doubled,
    edits,
    equal,
    convergeMs,
    cpuPercent,
    rssIdleBytes,
    rssPeakBytes: peakRss,
    loadGenCpuPercent,
    textChars: reference.length,
  };
}

/** ~`chars` characters of words per paragraph, `count` paragraphs. */
function pageHtml(random: () => number, count: number, chars: number): string {
  const letters = "etaoinshrdlucmfwypvbgk";
  const paragraphs: string[] = [];
  for (let p = 0; p < count; p++) {
    let text = "";
    while (text.length < chars) {
      let w = "";
      const length = 2 + Math.floor(random() * 7);
      for (let i = 0; i < length; i++) w += letters[Math.floor(random() * letters.length)];
      text += `${text ? " " : ""}${w}`;
    }
    paragraphs.push(`<p>${text}</p>`);
  }
  return paragraphs.join("");
}

export const scenario: Scenario = {
  id: "co-editing",
  title: "Co-editing: 20 editors × 5 edits/s for 30 s in one page, ours vs @y/websocket-server",
  defaults: {
    editors: 20,
    rate: 5,
    seconds: 30,
    paragraphs: 20,
    seed: 3,
    port: 3416,
    "peer-port": 3417,
    "peer-persistence": "leveldb",
  },
  async run(ctx) {
    const fig = figures("co-editing", ctx);
    const work: Workload = {
      editors: numberFlag(ctx, "editors", 20),
      rate: numberFlag(ctx, "rate", 5),
      seconds: numberFlag(ctx, "seconds", 30),
      seed: numberFlag(ctx, "seed", 3),
    };
    const paragraphs = numberFlag(ctx, "paragraphs", 20);
    const port = numberFlag(ctx, "port", 3416);
    const peerPort = numberFlag(ctx, "peer-port", 3417);
    const peerPersistence = stringFlag(ctx, "peer-persistence", "leveldb");

    // ── ours ──
    const store = await createStore(ctx, "co-editing");
    const server = await startServer(ctx, { port, store });
    const fixture = await setupFixture(server.url, { members: work.editors, log: ctx.log });
    const api = fixture.admin.api;
    const page = await api.post<{ id: string }>(`${fixture.projectPath}/pages/`, {
      name: "Co-editing",
      access: 0,
      description_html: pageHtml(prng(work.seed), paragraphs, 100),
    });
    // The state the server built from the HTML: the peer's editors start from exactly this.
    const response = await api.raw("GET", `${fixture.projectPath}/pages/${page.id}/description/`);
    if (!response.ok) throw new Error(`GET description → ${response.status}`);
    const initialState = new Uint8Array(await response.arrayBuffer());

    const ours: Target = {
      name: "ours",
      label: "Tideline /live (@hocuspocus/server)",
      async connect(index) {
        const member = fixture.members[index % fixture.members.length] ?? fixture.admin;
        const socket = liveClient(server.url, member.cookie);
        const { provider, doc } = await openDocument(socket, pageDocumentName(page.id));
        let closed: string | null = null;
        provider.on("close", ({ event }: { event: { code: number; reason: string } }) => {
          closed ??= `${event.code} ${event.reason}`;
        });
        return {
          doc,
          unsynced: () => provider.unsyncedChanges,
          closed: () => closed,
          destroy: () => {
            provider.destroy();
            socket.destroy();
          },
        };
      },
      rssBytes: () => server.rssBytes(),
      cpuSeconds: () => server.cpuSeconds(),
    };
    const mine = await runWorkload(ctx, ours, work);
    await server.stop();
    await store.dispose();

    // ── peer ──
    const peer = await startPeerServer(ctx, {
      port: peerPort,
      persistenceDir: peerPersistence === "leveldb" ? `${ctx.tmpDir}/peer-leveldb` : undefined,
    });
    let theirs: Outcome;
    try {
      const room = `page-${page.id}`;
      const reference: Target = {
        name: "peer",
        label: peer.label,
        async connect() {
          const doc = new Y.Doc();
          Y.applyUpdate(doc, initialState);
          const client = new YWebsocketClient(peer.url, room, doc);
          await client.whenSynced();
          return {
            doc,
            unsynced: () => client.bufferedAmount,
            closed: () => (client.closed ? "connection closed" : null),
            destroy: () => client.destroy(),
          };
        },
        rssBytes: () => peer.rssBytes(),
        cpuSeconds: () => peer.cpuSeconds(),
      };
      theirs = await runWorkload(ctx, reference, work);
    } finally {
      await peer.stop();
    }

    const clientsNote = "clients in the bench process (2 cores shared with the server)";
    const rows = (who: "ours" | "peer", o: Outcome, note: string): Figure[] => [
      fig(`${who}: edit → others median`, median(o.latencies), "ms", note),
      fig(`${who}: edit → others p99`, percentile(o.latencies, 99), "ms"),
      fig(`${who}: edit → others max`, max(o.latencies), "ms"),
      fig(
        `${who}: edits delivered`,
        o.expected ? (o.received / o.expected) * 100 : Number.NaN,
        "%",
        `${o.received}/${o.expected}`,
      ),
      fig(`${who}: edits doubled`, o.doubled, "count"),
      fig(
        `${who}: copies equal`,
        o.equal ? 1 : 0,
        "bool",
        `${work.editors} editors + a fresh client, ${o.textChars} chars`,
      ),
      fig(`${who}: last edit → all delivered`, o.convergeMs, "ms"),
      fig(`${who}: server CPU`, o.cpuPercent, "% core", "utime+stime over the edit phase"),
      fig(
        `${who}: server RSS peak`,
        o.rssPeakBytes / 2 ** 20,
        "MB",
        `idle before: ${Math.round(o.rssIdleBytes / 2 ** 20)} MB`,
      ),
      fig(`${who}: load generator CPU`, o.loadGenCpuPercent, "% core", clientsNote),
    ];
    const ratio = (metric: string, a: number, b: number) => fig(`ours/peer: ${metric}`, b ? a / b : Number.NaN, "×");
    return [
      ...rows("ours", mine, `${work.editors} editors × ${work.rate}/s × ${work.seconds} s, ${mine.edits} edits`),
      ...rows("peer", theirs, peer.label),
      ratio("edit → others median", median(mine.latencies), median(theirs.latencies)),
      ratio("edit → others p99", percentile(mine.latencies, 99), percentile(theirs.latencies, 99)),
      ratio("edit → others max", max(mine.latencies), max(theirs.latencies)),
      ratio("server CPU", mine.cpuPercent, theirs.cpuPercent),
      ratio("server RSS peak", mine.rssPeakBytes, theirs.rssPeakBytes),
    ];
  },
};
