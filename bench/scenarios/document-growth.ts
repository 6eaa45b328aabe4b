/**
 * Scenario 6 — document growth. A page of ~5 KB of text is created over REST (the server builds
 * its Yjs state from the HTML), then one real @hocuspocus/provider client applies 10,000 random
 * edits to it (inserts and deletes of 1–12 characters at random places, steered so the text
 * stays near its starting length), each its own Yjs transaction and so its own update message,
 * paced under the live layer's per-socket message rate. When the client has left (the last
 * client leaving folds the write-ahead log into the stored state), the stored state is read back
 * over REST (`GET …/pages/{id}/description/`) and compared with the length of the text it holds.
 *
 * Figures: stored state before/after and relative to the text, the client's own
 * Y.encodeStateAsUpdate before/after, the stored state read while the client was still connected
 * (stored state merged with the not yet folded log), whether the server's copy equals the
 * client's, and how fast the edits were accepted.
 */
import { pageDocumentName } from "@tideline/shared";
import * as Y from "yjs";
import { prng } from "../lib/random.ts";
import { figures, numberFlag, type Scenario, sleep, waitFor } from "../lib/scenario.ts";
import { createStore, startServer } from "../lib/server.ts";
import { liveClient, openDocument, setupFixture } from "../lib/setup.ts";
import { plainText, textsOf } from "../lib/yjs-text.ts";

const LETTERS = "etaoinshrdlucmfwypvbgkqjxz";

function word(random: () => number, min = 1, most = 12): string {
  const length = min + Math.floor(random() * (most - min + 1));
  let out = "";
  for (let i = 0; i < length; i++) out += LETTERS[Math.floor(random() * random() * LETTERS.length)];
  return out;
}

/** ~`bytes` of plain ASCII prose in paragraphs of ~`paragraph` characters. */
function pageHtml(random: () => number, bytes: number, paragraph: number): { html: string; text: number } {
  const paragraphs: string[] = [];
  let total = 0;
  while (total < bytes) {
    let p = "";
    while (p.length < paragraph) p += `${p ? " " : ""}${word(random, 2, 9)}`;
    paragraphs.push(p);
    total += p.length;
  }
  return { html: paragraphs.map((p) => `<p>${p}</p>`).join(""), text: total };
}

function textLength(doc: Y.Doc): number {
  return textsOf(doc).reduce((sum, t) => sum + t.length, 0);
}

export const scenario: Scenario = {
  id: "document-growth",
  title: "Document growth: stored Yjs state vs text after 10,000 random edits on a ~5 KB page",
  defaults: { edits: 10_000, "page-bytes": 5000, rate: 180, seed: 6, port: 3418 },
  async run(ctx) {
    const fig = figures("document-growth", ctx);
    const edits = numberFlag(ctx, "edits", 10_000);
    const targetBytes = numberFlag(ctx, "page-bytes", 5000);
    // The live layer closes a socket sending more than 200 messages/s sustained (burst 400).
    const rate = numberFlag(ctx, "rate", 180);
    const random = prng(numberFlag(ctx, "seed", 6));
    const port = numberFlag(ctx, "port", 3418);

    const store = await createStore(ctx, "document-growth");
    const server = await startServer(ctx, { port, store });
    const fixture = await setupFixture(server.url, { log: ctx.log });
    const api = fixture.admin.api;

    const content = pageHtml(random, targetBytes, 200);
    const page = await api.post<{ id: string }>(`${fixture.projectPath}/pages/`, {
      name: "Growth",
      description_html: content.html,
    });
    const descriptionPath = `${fixture.projectPath}/pages/${page.id}/description/`;
    const readStored = async () => {
      const response = await api.raw("GET", descriptionPath);
      if (!response.ok) throw new Error(`GET description → ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    };
    const storedBefore = await readStored();

    const socket = liveClient(server.url, fixture.admin.cookie);
    const { provider, doc } = await openDocument(socket, pageDocumentName(page.id));
    let closed: string | null = null;
    provider.on("close", ({ event }: { event: { code: number; reason: string } }) => {
      closed ??= `${event.code} ${event.reason}`;
    });
    const startText = textLength(doc);
    const clientBefore = Y.encodeStateAsUpdate(doc).byteLength;
    ctx.log(
      `page ${page.id}: ${textsOf(doc).length} paragraphs, ${startText} characters, stored ${storedBefore.length} B`,
    );

    const texts = textsOf(doc);
    if (texts.length === 0) throw new Error("the page has no text to edit");
    const target = startText;
    let inserts = 0;
    let deletes = 0;
    let insertedChars = 0;
    let deletedChars = 0;
    const started = performance.now();
    for (let i = 0; i < edits; i++) {
      if (closed) throw new Error(`the server closed the document after ${i} edits: ${closed}`);
      const total = texts.reduce((sum, t) => sum + t.length, 0);
      // Steer towards the starting length: below it inserts win, above it deletes do.
      const pInsert = Math.min(0.9, Math.max(0.1, 0.5 + ((target - total) / target) * 5));
      const text = texts[Math.floor(random() * texts.length)] as Y.XmlText;
      if (random() < pInsert || text.length < 2) {
        const at = Math.floor(random() * (text.length + 1));
        const what = random() < 0.5 ? ` ${word(random)}` : word(random);
        doc.transact(() => text.insert(at, what));
        inserts++;
        insertedChars += what.length;
      } else {
        const at = Math.floor(random() * text.length);
        const length = Math.min(1 + Math.floor(random() * 12), text.length - at);
        doc.transact(() => text.delete(at, length));
        deletes++;
        deletedChars += length;
      }
      // Pace: edit i is due at i / rate seconds.
      const due = started + ((i + 1) * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
    }
    const sentMs = performance.now() - started;
    await waitFor("every edit acknowledged", () => provider.unsyncedChanges === 0 || closed, 60_000);
    if (closed) throw new Error(`the server closed the document: ${closed}`);
    const ackedMs = performance.now() - started;
    const endText = textLength(doc);
    const clientAfter = Y.encodeStateAsUpdate(doc).byteLength;
    const clientAfterV2 = Y.encodeStateAsUpdateV2(doc).byteLength;
    const clientPlain = plainText(doc);
    ctx.log(
      `${edits} edits (${inserts} inserts +${insertedChars}, ${deletes} deletes −${deletedChars}) in ${(ackedMs / 1000).toFixed(1)} s; text ${endText} characters`,
    );

    // While connected: the stored state merged with the log rows not folded yet.
    const storedConnected = await readStored();

    // The last client leaving stores the document at once (fold + log rows deleted).
    provider.destroy();
    socket.destroy();
    let last = -1;
    const storedAfter = await waitFor(
      "the folded state",
      async () => {
        const bytes = await readStored();
        const stable = bytes.length === last;
        last = bytes.length;
        return stable ? bytes : null;
      },
      30_000,
      500,
    );
    const serverDoc = new Y.Doc();
    Y.applyUpdate(serverDoc, storedAfter);
    const equal = plainText(serverDoc) === clientPlain;
    serverDoc.destroy();
    const textBytes = Buffer.byteLength(clientPlain.replaceAll("\n", ""), "utf8");

    await server.stop();
    await store.dispose();

    const editNote = `${inserts} inserts, ${deletes} deletes; one update message each, paced at ${rate}/s`;
    return [
      fig("text before", startText, "chars", `${texts.length} paragraphs`),
      fig("text after", endText, "chars"),
      fig("stored state before", storedBefore.length / 1024, "KB", "built from the page's HTML"),
      fig("stored state after", storedAfter.length / 1024, "KB", "GET description/ after the client left (folded)"),
      fig("stored state after / text", storedAfter.length / textBytes, "×", "UTF-8 bytes of the text"),
      fig("stored state before / text", storedBefore.length / startText, "×"),
      fig(
        "stored + unfolded log while connected",
        storedConnected.length / 1024,
        "KB",
        "GET description/ = Y.mergeUpdates(stored state, log rows): smaller than a re-encoded doc",
      ),
      fig("client encodeStateAsUpdate before", clientBefore / 1024, "KB"),
      fig("client encodeStateAsUpdate after", clientAfter / 1024, "KB"),
      fig("client state after / text", clientAfter / textBytes, "×"),
      fig("client encodeStateAsUpdateV2 after", clientAfterV2 / 1024, "KB", "Yjs' v2 encoding, for comparison"),
      fig("server copy equals client", equal ? 1 : 0, "bool"),
      fig(
        "edits accepted",
        (edits / ackedMs) * 1000,
        "edits/s",
        `${editNote}; sent in ${(sentMs / 1000).toFixed(1)} s`,
      ),
    ];
  },
};
