// Reads a board's local copy while the app's code is still downloading (issue 12).
//
// A second visit of a board paints from the local database (src/lib/local-db). Read from the app,
// that read starts only once the app's modules have loaded and its first screens have mounted
// (half a second into a warm open on a 2-core machine), and reading a 10,000-item snapshot out of
// IndexedDB takes another 150–250 ms. This file (a plain script of its own, like theme.js: Vite
// folds every module script of index.html into the app's entry, and the CSP allows no inline
// script) reads the transaction the app would (the sync record, the snapshot and the project's
// stored metadata lists) from the first moment, and leaves the answer where the app looks for it:
// src/lib/local-db/preload.ts, which uses it only if it is the signed-in user's copy, of the
// app's version, and the local database is on. The names below are src/lib/local-db/schema.ts's
// (preload.test.ts runs this file against a database the app wrote).
//
// On a board's address it also asks for the board's screens' code at once (modulepreload links
// for the files the build lists in index.html's tideline-board-modules meta).
//
// It never creates a database (it opens only one that indexedDB.databases() lists), closes its
// connection once the read is done or when another page asks to upgrade, and does nothing when
// the local database is switched off or the page is not a board.
(() => {
  const DB_PREFIX = "tideline:local:";
  const META_STORES = ["states", "labels", "members", "estimates", "cycles", "modules"];
  const PRELOAD_GLOBAL = "__tidelineLocalPreload";
  // A project's board, or a cycle's, module's or view's: [, project id, "issues" or the kind].
  const BOARD_PATH = /^\/[^/]+\/projects\/([0-9a-f-]{36})\/(?:(issues)\/?$|(cycles|modules|views)\/[0-9a-f-]{36}\/?$)/;

  const request = (req) =>
    new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });

  async function readCopy(projectId) {
    const found = (await indexedDB.databases()).find((d) => d.name?.startsWith(DB_PREFIX));
    if (!found) return null;
    const db = await request(indexedDB.open(found.name));
    db.onversionchange = () => db.close();
    try {
      const stores = ["options", "snapshots", ...META_STORES];
      if (stores.some((s) => !db.objectStoreNames.contains(s))) return null;
      const tx = db.transaction(stores);
      const options = tx.objectStore("options");
      const [version, record, snapshot] = await Promise.all([
        request(options.get("version")),
        request(options.get(`sync:${projectId}`)),
        request(tx.objectStore("snapshots").get(projectId)),
      ]);
      const lists = {};
      await Promise.all(
        META_STORES.map(async (store) => {
          if (!(await request(options.get(`meta:${store}:${projectId}`)))) return;
          lists[store] = await request(tx.objectStore(store).index("project_id").getAll(projectId));
        }),
      );
      return {
        dbName: found.name,
        projectId,
        version: version ? version.value : undefined,
        record: record ? record.value : null,
        snapshot: snapshot || null,
        lists,
      };
    } finally {
      db.close();
    }
  }

  // The board's screens' code, asked now rather than once the app has started and its router has
  // matched (the build lists the files per kind of board in this meta: client/vite.config.ts).
  function preloadBoardModules(kind) {
    const meta = document.querySelector('meta[name="tideline-board-modules"]');
    if (!meta) return;
    const files = JSON.parse(meta.content)[kind] || [];
    for (const href of files) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    }
  }

  try {
    const match = BOARD_PATH.exec(location.pathname);
    if (!match) return;
    try {
      preloadBoardModules(match[2] || match[3]);
    } catch {}
    if (typeof indexedDB === "undefined" || typeof indexedDB.databases !== "function") return;
    if (localStorage.getItem("tideline:local-db-enabled") === "false") return;
    performance.mark("tideline:local-db:preload-start");
    globalThis[PRELOAD_GLOBAL] = {
      projectId: match[1],
      copy: readCopy(match[1])
        .then((copy) => {
          performance.mark("tideline:local-db:preload-read");
          return copy;
        })
        .catch(() => null),
    };
  } catch {}
})();
