import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one, so a single worker on the 2-core CI
    // machines; an API test file spends much of its time waiting for its database (PGlite in a
    // thread of its own, or PostgreSQL), so three files at once keep both cores busy. Measured on
    // 2 cores, API suite on PGlite: 125 s with two workers, 112 s with three.
    maxWorkers: Math.max(3, availableParallelism()),
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
