/**
 * The Node flags the server runs with. `npm run serve` (package.json) is their one source: the
 * benchmarks and the end-to-end tests start the server through this function, so they measure
 * and test the process a self-hoster runs; the Dockerfile repeats them, checked by
 * server-node-flags.test.ts.
 *
 * Why a flag at all: V8 sizes the young generation once, when the process starts, from the heap
 * limit (on a machine with several GB, semi-spaces of 32 MB: a 96 MB young generation). The
 * server's start-up grows it to that ceiling and an idle server never shrinks it again. 16 MB
 * semi-spaces take about 50 MB off the idle server and 100 MB off one that has opened and
 * closed many documents, for 5–10 % of throughput under concurrent writes
 * (bench/results/issue-21/README.md, "Idle memory"). The flag can't be set from inside: V8
 * ignores it once the heap exists.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The flags between `node` and `live-server/src/main.ts` in package.json's `serve` script. */
export function serverNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const serve = manifest.scripts.serve ?? "";
  const match = /^node((?:\s+--\S+)*)\s+live-server\/src\/main\.ts$/.exec(serve.trim());
  if (!match)
    throw new Error(`package.json's serve script is not \`node [--flags] live-server/src/main.ts\`: ${serve}`);
  return (match[1] ?? "").split(/\s+/).filter(Boolean);
}
