/**
 * `npm run bench [-- <scenario ids…>] [--flag=value …]`: runs the named scenarios (all of
 * bench/scenarios/*.ts by default) on the embedded database — or, with DATABASE_URL and
 * REDIS_URL set, on PostgreSQL + Redis — prints one table and writes the same figures to
 * bench/results/latest.json. Timings are reported, never judged: the exit code is non-zero
 * only when a scenario could not run at all.
 *
 * `--out=<name>` writes bench/results/<name>.json and <name>.md (a Markdown table) instead of
 * latest.json, and `--label=<text>` is stored with them: how a kept run (a "before" or "after"
 * column) says what it measured and under which conditions.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Backend, BenchContext, Figure, Scenario } from "./lib/scenario.ts";
import { cleanupAll, keepStores } from "./lib/server.ts";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SCENARIO_DIR = path.join(BENCH_DIR, "scenarios");
const RESULTS_DIR = path.join(BENCH_DIR, "results");
/** Flags the runner reads itself (scenarios ignore them). */
const RUNNER_FLAGS = ["out", "label"];

function parseArgs(argv: string[]): { ids: string[]; flags: Record<string, string> } {
  const ids: string[] = [];
  const flags: Record<string, string> = {};
  for (const arg of argv) {
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq < 0) flags[arg.slice(2)] = "true";
      else flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (arg.trim()) {
      ids.push(arg.trim());
    }
  }
  return { ids, flags };
}

async function loadScenarios(ids: string[]): Promise<Scenario[]> {
  const files = readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort();
  const available = files.map((f) => f.slice(0, -3));
  const unknown = ids.filter((id) => !available.includes(id));
  if (unknown.length) {
    throw new Error(`unknown scenario(s): ${unknown.join(", ")}; available: ${available.join(", ")}`);
  }
  const chosen = ids.length ? ids : available;
  const scenarios: Scenario[] = [];
  for (const id of chosen) {
    const mod = (await import(pathToFileURL(path.join(SCENARIO_DIR, `${id}.ts`)).href)) as {
      scenario?: Scenario;
      default?: Scenario;
    };
    const scenario = mod.scenario ?? mod.default;
    if (!scenario) throw new Error(`bench/scenarios/${id}.ts exports no \`scenario\``);
    scenarios.push(scenario);
  }
  return scenarios;
}

function formatValue(value: number): string {
  // NaN is a figure a scenario could not measure this time (its note says why).
  if (Number.isNaN(value)) return "n/a";
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 1 : 2);
}

/** A plain-text table: scenario, metric, value (right-aligned), unit, backend, note. */
export function renderTable(rows: Figure[]): string {
  const header = ["scenario", "metric", "value", "unit", "backend", "note"];
  const cells = rows.map((r) => [r.scenario, r.metric, formatValue(r.value), r.unit, r.backend, r.note ?? ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (i === 2 ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/** The same rows as a Markdown table (pipes in notes escaped). */
export function renderMarkdownTable(rows: Figure[]): string {
  const cell = (v: string) => v.replaceAll("|", "\\|");
  return [
    "| scenario | metric | value | unit | backend | note |",
    "| --- | --- | ---: | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${[r.scenario, r.metric, formatValue(r.value), r.unit, r.backend, r.note ?? ""].map(cell).join(" | ")} |`,
    ),
  ].join("\n");
}

/** The commit the measured code is at, and whether tracked files differ from it. */
function codeVersion(): { commit: string; dirty: boolean } {
  const git = (...args: string[]) =>
    spawnSync("git", args, { cwd: path.dirname(BENCH_DIR), encoding: "utf8" }).stdout?.trim() ?? "";
  return {
    commit: git("rev-parse", "HEAD") || "unknown",
    dirty: git("status", "--porcelain", "--untracked-files=no") !== "",
  };
}

async function main(): Promise<number> {
  const { ids, flags } = parseArgs(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (Boolean(databaseUrl) !== Boolean(redisUrl)) {
    console.error("bench: set both DATABASE_URL and REDIS_URL (PostgreSQL + Redis), or neither (embedded database).");
    return 2;
  }
  const backend: Backend = databaseUrl ? "postgres" : "pglite";
  const scenarios = await loadScenarios(ids);
  const all: Figure[] = [];
  const runs: {
    id: string;
    title: string;
    ok: boolean;
    seconds: number;
    flags: Record<string, string>;
    load_before: string;
    load_after: string;
    error?: string;
  }[] = [];
  const startedAt = new Date();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(
    `bench: ${scenarios.map((s) => s.id).join(", ")} on ${backend} (${os.cpus().length} CPUs, load ${load()})`,
  );

  const scenarioFlags = Object.fromEntries(Object.entries(flags).filter(([k]) => !RUNNER_FLAGS.includes(k)));
  for (const scenario of scenarios) {
    const merged: Record<string, string> = {};
    for (const [k, v] of Object.entries(scenario.defaults)) merged[k] = String(v);
    Object.assign(merged, scenarioFlags);
    const loadBefore = load();
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), `tideline-bench-${scenario.id}-`));
    // Also removed when the run is interrupted (the signal handler ends the process with exit()).
    // BENCH_KEEP_STORE=1 keeps every store (data folder and database) to look into afterwards.
    const removeTmp = () => {
      if (keepStores()) console.log(`  kept ${tmpDir}`);
      else rmSync(tmpDir, { recursive: true, force: true });
    };
    process.on("exit", removeTmp);
    const started = performance.now();
    const ctx: BenchContext = {
      flags: merged,
      backend,
      databaseUrl,
      redisUrl,
      tmpDir,
      log: (msg) => {
        const s = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
        console.log(`  [${scenario.id} ${s}s] ${msg}`);
      },
    };
    console.log(`\n▶ ${scenario.id}: ${scenario.title}`);
    let error: string | undefined;
    try {
      const figures = await scenario.run(ctx);
      all.push(...figures);
    } catch (e) {
      error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      console.error(`  ✗ ${scenario.id} failed: ${error}`);
    } finally {
      await cleanupAll();
      removeTmp();
      process.off("exit", removeTmp);
    }
    const seconds = (performance.now() - started) / 1000;
    const loadAfter = load();
    ctx.log(`${error ? "failed" : "done"} in ${seconds.toFixed(1)} s (load ${loadAfter})`);
    runs.push({
      id: scenario.id,
      title: scenario.title,
      ok: !error,
      seconds,
      flags: merged,
      load_before: loadBefore,
      load_after: loadAfter,
      ...(error ? { error } : {}),
    });
  }

  console.log(`\n${renderTable(all)}\n`);
  const outName = flags.out || "latest";
  const out = path.join(RESULTS_DIR, `${outName}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  const machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? "", memory_gb: os.totalmem() / 2 ** 30 };
  const code = codeVersion();
  const result = {
    ...(flags.label ? { label: flags.label } : {}),
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    backend,
    machine,
    node: process.version,
    code,
    scenarios: runs,
    figures: all,
  };
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  if (flags.out) {
    const header = [
      `# ${flags.label ?? outName}`,
      "",
      `Run ${result.started_at} → ${result.finished_at} on ${backend}; ${machine.cpus} CPUs (${machine.cpu_model}), ` +
        `${machine.memory_gb.toFixed(1)} GB; Node ${process.version}; code at ${code.commit}${code.dirty ? " with uncommitted changes" : ""}.`,
      "",
      "| scenario | seconds | load average before | load average after | flags |",
      "| --- | ---: | --- | --- | --- |",
      ...runs.map(
        (r) =>
          `| ${r.id}${r.ok ? "" : " (failed)"} | ${r.seconds.toFixed(0)} | ${r.load_before} | ${r.load_after} | ${Object.entries(
            r.flags,
          )
            .map(([k, v]) => `--${k}=${v}`)
            .join(" ")} |`,
      ),
      "",
    ];
    writeFileSync(path.join(RESULTS_DIR, `${outName}.md`), `${[...header, renderMarkdownTable(all)].join("\n")}\n`);
  }
  console.log(`written ${path.relative(process.cwd(), out)}`);
  const failed = runs.filter((r) => !r.ok);
  if (failed.length) console.error(`bench: ${failed.map((r) => r.id).join(", ")} could not run (see above)`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    console.error(error);
    await cleanupAll();
    process.exit(2);
  },
);
