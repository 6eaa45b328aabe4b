/**
 * The reference Yjs server for comparisons (scenario co-editing): `@y/websocket-server` run as
 * a child process exactly as its bin runs (`HOST`/`PORT`, `YPERSISTENCE` for its LevelDB
 * persistence), and a minimal y-websocket client over `ws` (y-protocols sync; y-websocket's own
 * WebsocketProvider is not installed): sync step 1 on open, replies through
 * `readSyncMessage`, every local update sent as a sync update. Awareness is not used.
 *
 * The child is killed when `stop()` runs, and (server.ts `trackProcess`) when the bench exits,
 * is interrupted or runs its cleanup after the scenario.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { WebSocket } from "ws";
import * as syncProtocol from "y-protocols/sync";
import type * as Y from "yjs";
import { type BenchContext, sleep } from "./scenario.ts";
import { REPO_ROOT, readCpuSeconds, readRssBytes, trackProcess } from "./server.ts";

const PEER_BIN = path.join(REPO_ROOT, "node_modules/@y/websocket-server/src/server.js");
const PEER_PACKAGE = path.join(REPO_ROOT, "node_modules/@y/websocket-server/package.json");

export type PeerServer = {
  /** ws://127.0.0.1:<port> — a document is `${url}/${name}`. */
  url: string;
  pid: number;
  /** "@y/websocket-server 0.1.1" */
  label: string;
  stop(): Promise<void>;
  rssBytes(): number;
  cpuSeconds(): number;
};

export async function startPeerServer(
  ctx: BenchContext,
  options: { port: number; persistenceDir?: string },
): Promise<PeerServer> {
  const version = (JSON.parse(readFileSync(PEER_PACKAGE, "utf8")) as { version: string }).version;
  const logFile = path.join(ctx.tmpDir, `peer-${options.port}.log`);
  const fd = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [PEER_BIN], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOST: "127.0.0.1",
        PORT: String(options.port),
        ...(options.persistenceDir ? { YPERSISTENCE: options.persistenceDir } : {}),
      },
      stdio: ["ignore", fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn the peer server");
  trackProcess(child);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited) return;
    child.kill("SIGTERM");
    const done = await Promise.race([exit.then(() => true), sleep(5000).then(() => false)]);
    if (!done) {
      child.kill("SIGKILL");
      await exit;
    }
  };
  const http = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(`the peer server exited during start-up; log ${logFile}`);
    try {
      const response = await fetch(http);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the peer server did not answer on :${options.port}; log ${logFile}`);
    }
    await sleep(20);
  }
  const label = `@y/websocket-server ${version}${options.persistenceDir ? " + LevelDB" : " (memory)"}`;
  ctx.log(`peer ${label} :${options.port} up (pid ${pid})`);
  return {
    url: `ws://127.0.0.1:${options.port}`,
    pid,
    label,
    stop,
    rssBytes: () => readRssBytes(pid),
    cpuSeconds: () => readCpuSeconds(pid),
  };
}

const MESSAGE_SYNC = 0;

/** One y-websocket client of one document: what y-websocket's WebsocketProvider does, minus awareness. */
export class YWebsocketClient {
  readonly doc: Y.Doc;
  readonly socket: WebSocket;
  synced = false;
  closed = false;
  private readonly onUpdate: (update: Uint8Array, origin: unknown) => void;

  constructor(url: string, name: string, doc: Y.Doc) {
    this.doc = doc;
    this.socket = new WebSocket(`${url}/${name}`);
    this.socket.binaryType = "arraybuffer";
    this.socket.on("open", () => {
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeSyncStep1(encoder, doc);
      this.socket.send(encoding.toUint8Array(encoder));
    });
    this.socket.on("message", (data: ArrayBuffer) => {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      if (decoding.readVarUint(decoder) !== MESSAGE_SYNC) return; // awareness: not used
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      const type = syncProtocol.readSyncMessage(decoder, encoder, doc, this);
      if (type === syncProtocol.messageYjsSyncStep2) this.synced = true;
      if (encoding.length(encoder) > 1) this.socket.send(encoding.toUint8Array(encoder));
    });
    this.socket.on("close", () => {
      this.closed = true;
    });
    this.socket.on("error", () => {
      this.closed = true;
    });
    this.onUpdate = (update, origin) => {
      // Updates applied from the socket carry this client as origin: don't echo them.
      if (origin === this || this.socket.readyState !== WebSocket.OPEN) return;
      const encoder = encoding.createEncoder();
      encoding.writeVarUint(encoder, MESSAGE_SYNC);
      syncProtocol.writeUpdate(encoder, update);
      this.socket.send(encoding.toUint8Array(encoder));
    };
    doc.on("update", this.onUpdate);
  }

  /** Resolves once the server's state has been received (sync step 2). */
  async whenSynced(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.synced) {
      if (this.closed) throw new Error("the peer closed the connection before syncing");
      if (Date.now() > deadline) throw new Error(`not synced within ${timeoutMs} ms`);
      await sleep(10);
    }
  }

  /** Bytes queued in the socket and not yet written to the network. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  destroy(): void {
    this.doc.off("update", this.onUpdate);
    this.socket.close();
  }
}
