/** Entry point: load config, build the app, listen, and shut down cleanly on signals. */
import module from "node:module";

const startedAt = performance.now();
// Most of a start is Node compiling the server's modules (Fastify, tiptap, the AWS SDK…):
// keep the compiled code on disk (the OS temp folder unless NODE_COMPILE_CACHE says where) so
// later starts skip it. Enabled before the app's modules are imported, hence the dynamic imports.
module.enableCompileCache?.();
const { buildApp } = await import("./app.ts");
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
