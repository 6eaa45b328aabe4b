/**
 * Chromium for the browser scenarios, found or installed exactly as the browser tests do:
 * `scripts/ensure-chromium.mjs` (what `npm run test:e2e` runs first) looks at CHROMIUM_PATH,
 * /usr/bin/chromium and /usr/bin/chromium-browser and, as root with none there, installs Debian's
 * `chromium` package. `--chromium=<path>` is passed to it as CHROMIUM_PATH. It runs once per
 * bench process; every browser scenario after the first reuses its answer.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import type { BenchContext } from "./scenario.ts";
import { REPO_ROOT, trackProcess } from "./server.ts";

/** Quiet, reproducible Chromium: no GPU, no background traffic of its own that would skew timings. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

const ENSURE_SCRIPT = path.join(REPO_ROOT, "scripts/ensure-chromium.mjs");
const found = new Map<string, Promise<string>>();

function runEnsureScript(ctx: BenchContext, chromiumPath: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ENSURE_SCRIPT], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    trackProcess(child);
    let output = "";
    const relay = (data: Buffer) => {
      output += data.toString();
      for (const line of data.toString().split("\n")) if (line.trim()) ctx.log(line.trimEnd());
    };
    child.stdout.on("data", relay);
    child.stderr.on("data", relay);
    child.on("error", reject);
    child.on("exit", (code) => {
      // The script's last word names the binary: "ensure-chromium: using /usr/bin/chromium (Chromium 1xx…)".
      const using = /ensure-chromium: using (\S+)/.exec(output)?.[1];
      if (code === 0 && using) resolve(using);
      else reject(new Error(`scripts/ensure-chromium.mjs found no Chromium (exit ${code}):\n${output.slice(-2000)}`));
    });
  });
}

/** The Chromium binary to drive: `--chromium`, else CHROMIUM_PATH, else the system one (installed if missing and root). */
export function ensureChromium(ctx: BenchContext): Promise<string> {
  const given = ctx.flags.chromium || undefined;
  const key = given ?? "";
  let pending = found.get(key);
  if (!pending) {
    pending = runEnsureScript(ctx, given);
    // A failed look-up may succeed later (someone installs Chromium meanwhile): don't keep it.
    pending.catch(() => found.delete(key));
    found.set(key, pending);
  }
  return pending;
}

/**
 * BENCH_BROWSER_CPUS (e.g. "1"): Chromium and every process it starts run on those CPUs only
 * (`taskset`, through a wrapper script; its children inherit the mask). With BENCH_SERVER_CPUS
 * (lib/server.ts) the server and the browser each get their own core, closer to a user whose
 * server runs elsewhere than sharing both cores.
 */
export const BROWSER_CPUS = process.env.BENCH_BROWSER_CPUS ?? "";

async function pinnedExecutable(executablePath: string): Promise<string> {
  if (!BROWSER_CPUS) return executablePath;
  const dir = await mkdtemp(path.join(tmpdir(), "bench-chromium-"));
  const wrapper = path.join(dir, "chromium");
  await writeFile(wrapper, `#!/bin/sh\nexec taskset -c ${BROWSER_CPUS} ${JSON.stringify(executablePath)} "$@"\n`);
  await chmod(wrapper, 0o755);
  return wrapper;
}

export async function launchChromium(ctx: BenchContext): Promise<Browser> {
  const executablePath = await pinnedExecutable(await ensureChromium(ctx));
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
