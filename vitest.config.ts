import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "shared", include: ["shared/src/**/*.test.ts"] } },
      { test: { name: "client-unit", include: ["client/src/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "api",
          include: ["live-server/src/**/*.test.ts"],
          globalSetup: ["live-server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
