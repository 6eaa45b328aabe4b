import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * API test files that take half a minute or more (the fuzzing of every route, the durability
 * runs, the embedded database's own tests, the sign-in limits). Vitest starts the longest files
 * first only when its cache has their durations; a clean clone (CI) has none and starts the
 * biggest files first, and these are small: they started last and ran alone for over a minute
 * while the other workers sat idle. Started first, they run beside the many short files. The
 * order pairs the fuzzing, which keeps both cores busy, with files that mostly wait (the limits,
 * the worker's scheduling): the three heaviest at once took longer than the old order. API suite
 * on PGlite, clean cache, 2 cores: 287 s before, 292 s longest-first, 232 s in this order.
 */
const LONG_FILES = [
  /\/http\/fuzz-writes-2\.test\.ts$/,
  /\/routes\/auth\/limits\.test\.ts$/,
  /\/db\/pglite-worker\.test\.ts$/,
  /\/live\/durability\.test\.ts$/,
  /\/http\/fuzz-writes-1\.test\.ts$/,
  /\/db\/pglite-template\.test\.ts$/,
  /\/http\/fuzz-reads\.test\.ts$/,
];

/** Vitest's order (projects one after another, then by duration or size), with the long files first, in LONG_FILES' order, within each project. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectOrder = new Map<string, number>();
    for (const spec of sorted)
      if (!projectOrder.has(spec.project.name)) projectOrder.set(spec.project.name, projectOrder.size);
    const long = (spec: TestSpecification) => {
      const index = LONG_FILES.findIndex((pattern) => pattern.test(spec.moduleId));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Array.prototype.sort is stable: within each group Vitest's own order stays.
    return [...sorted].sort(
      (a, b) => (projectOrder.get(a.project.name) ?? 0) - (projectOrder.get(b.project.name) ?? 0) || long(a) - long(b),
    );
  }
}

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, so a single worker on the 2-core CI
    // machines; an API test file spends much of its time waiting for its database (PGlite in a
    // thread of its own, or PostgreSQL), so three files at once keep both cores busy. Measured on
    // 2 cores, API suite on PGlite: 125 s with two workers, 112 s with three.
    maxWorkers: Math.max(3, availableParallelism()),
    sequence: { sequencer: LongFilesFirst },
    projects: [
      { test: { name: "shared", include: ["shared/src/**/*.test.ts"] } },
      { test: { name: "client-unit", include: ["client/src/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "api",
          include: ["live-server/src/**/*.test.ts"],
          // Each file builds its own app on its own database and closes it, so nothing leaks from
          // one file to the next through module state: loading the server's modules once per
          // worker, not once per file, saves about a fifth of the suite's time.
          isolate: false,
          globalSetup: ["live-server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Two real server processes on PostgreSQL + Redis (TEST_DATABASE_URL, REDIS_URL): only
        // `npm run test:scale` runs this project, never `npm test`.
        test: {
          name: "scale",
          include: ["live-server/test/scale/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
