/** Entry point: load config, build the app, listen, and shut down cleanly on signals. */
import { existsSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

const startedAt = performance.now();
// Most of a start is Node compiling the server's modules (Fastify, tiptap, Drizzle…):
// keep the compiled code on disk (the OS temp folder unless NODE_COMPILE_CACHE says where) so
// later starts skip it. Enabled before the app's modules are imported, hence the dynamic imports.
module.enableCompileCache?.();

// Node checks every ESM file it loads against its package's package.json; drizzle-orm's has 447
// exports (179 kB) and ~300 files are loaded, which cost 250-300 ms of a one-second start. Its
// CommonJS build is the same code and loads in ~60 ms: every resolution into drizzle-orm (ours and
// its own) is sent there, so one copy is loaded. The e2e tests start the server through this file.
module.registerHooks?.({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.includes("/node_modules/drizzle-orm/") && resolved.url.endsWith(".js")) {
      const commonJs = `${resolved.url.slice(0, -".js".length)}.cjs`;
      if (existsSync(fileURLToPath(commonJs))) return { ...resolved, url: commonJs, format: "commonjs" };
    }
    return resolved;
  },
});
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

// The embedded database opens in its own thread (db/pglite-worker.ts): start it before anything
// else, so it gets ready while this thread loads Drizzle and the rest of the server.
const { PgliteWorkerClient, pgliteDir } = await import("./db/pglite-worker-client.ts");
const { templateFor } = await import("./db/pglite-template.ts");
const startedPglite = config.databaseUrl
  ? undefined
  : PgliteWorkerClient.create({
      dataDir: pgliteDir(config.dataDir),
      sharedBuffers: config.pgliteSharedBuffers,
      // A data folder without a database starts from the prepared one (npm run build), if any.
      loadDataDir: templateFor(config.dataDir),
    });
startedPglite?.catch(() => undefined); // awaited through openDatabase below
const { openDatabase } = await import("./db/client.ts");
const opening = openDatabase(config, { startedPglite });
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
