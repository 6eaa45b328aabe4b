/** Entry point: load config, build the app, listen, and shut down cleanly on signals. */
import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";

const startedAt = performance.now();
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

const app = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
app.log.info(
  {
    url: config.appBaseUrl,
    database: config.databaseUrl ? "postgres" : `pglite (${config.dataDir})`,
    startupMs: Math.round(performance.now() - startedAt),
  },
  "Tideline is ready",
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, "shutting down");
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
