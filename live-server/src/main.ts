/** Entry point: load config, build the app, listen, and shut down cleanly on signals. */
import module from "node:module";

const startedAt = performance.now();
// Most of a start is Node compiling the server's modules (Fastify, tiptap, the AWS SDK…):
// keep the compiled code on disk (the OS temp folder unless NODE_COMPILE_CACHE says where) so
// later starts skip it. Enabled before the app's modules are imported, hence the dynamic imports.
module.enableCompileCache?.();
const { ConfigError, loadConfig } = await import("./config.ts");

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

// Open (and migrate) the database first: the embedded one opens in its own thread
// (db/pglite-worker.ts), so it gets ready while this thread compiles the rest of the server.
const { openDatabase } = await import("./db/client.ts");
const opening = openDatabase(config);
opening.catch(() => undefined); // awaited below; don't report it as unhandled meanwhile
const { buildApp } = await import("./app.ts");
const app = await buildApp(config, { database: await opening, closeDatabase: true });
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
