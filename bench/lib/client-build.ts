/**
 * The client for browser benchmarks: built once per run into a temporary folder (never
 * client/dist, which developers and the e2e tests use), or an existing build given with
 * `--client-dist=<dir>`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { BenchContext } from "./scenario.ts";
import { REPO_ROOT, trackProcess } from "./server.ts";

export async function buildClient(ctx: BenchContext): Promise<string> {
  const given = ctx.flags["client-dist"];
  if (given) {
    const dir = path.resolve(given);
    if (!existsSync(path.join(dir, "index.html"))) throw new Error(`--client-dist=${given} has no index.html`);
    ctx.log(`using the client build in ${dir}`);
    return dir;
  }
  const outDir = path.join(ctx.tmpDir, "client-dist");
  const started = performance.now();
  const vite = path.join(REPO_ROOT, "node_modules/vite/bin/vite.js");
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const child = spawn(process.execPath, [vite, "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], {
      cwd: path.join(REPO_ROOT, "client"),
      stdio: ["ignore", "pipe", "pipe"],
    });
    trackProcess(child);
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output.slice(-3000)}`)),
    );
  });
  ctx.log(`client built in ${Math.round(performance.now() - started)} ms`);
  return outDir;
}
