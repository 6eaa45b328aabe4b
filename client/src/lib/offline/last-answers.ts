/**
 * The last answers of the few reads the app needs to start (who am I, my workspaces, the
 * project, its board settings), kept in IndexedDB and given back when the network fails — so a
 * reload offline gets past sign-in and the workspace to the board, whose items and metadata come
 * from the local database (lib/local-db). Not an HTTP cache: online, every read goes to the
 * server and its answer replaces the kept one; only GETs (and the PATCHes that change them) of the
 * paths below, only 2xx answers.
 * The service worker never keeps API answers; this is the app's own, one user's, deleted at
 * sign-out (the "tideline:" databases sweep in stores/session.ts).
 *
 * At start the kept answers also make the app open at once: while the start window is open
 * (until the first board has painted, or a few seconds), the first read of each kept path in
 * this page answers its kept copy at once and asks the server behind it. When the server's
 * answer differs — or refuses: the session ended, the membership is gone — the stores that
 * read that path are told (onKeptAnswerChanged) and read it again from the server, which now
 * answers every later read of it. So a board paints from the local copy before any network
 * answer, and a stale start corrects itself within one round trip.
 */
import { type IDBPDatabase, openDB } from "idb";

const DATABASE = "tideline:last-answers";
/** The read that says who is signed in. */
const SESSION_READ = "/api/users/me/";

/** The reads a board needs before its own data (pathname only). */
const KEPT = [
  /^\/api\/instances\/$/,
  /^\/api\/users\/me\/(profile\/|workspaces\/)?$/,
  /^\/api\/workspaces\/[^/]+\/$/,
  /^\/api\/workspaces\/[^/]+\/(projects|user-favorite-projects|user-favorites)\/$/,
  /^\/api\/workspaces\/[^/]+\/projects\/[^/]+\/$/,
  /^\/api\/workspaces\/[^/]+\/projects\/[^/]+\/(user-properties|epics-user-properties|project-members\/me)\/$/,
];

export function isKeptRead(pathname: string): boolean {
  return KEPT.some((pattern) => pattern.test(pathname));
}

/** The mark on an answer given from its kept copy at start (the server is asked behind it). */
export const KEPT_ANSWER_HEADER = "x-tideline-kept";

/**
 * Changes whose answer is a kept read's object under another path: finishing onboarding (and the
 * tour) answers the profile, which must be kept, or the next page starts "not onboarded".
 */
const ANSWERS_FOR: Record<string, string> = {
  "/api/users/me/onboard/": "/api/users/me/profile/",
  "/api/users/me/tour-completed/": "/api/users/me/profile/",
};

type Answer = { body: string; type: string };
type Schema = { answers: { key: string; value: Answer } };

let opening: Promise<IDBPDatabase<Schema>> | null = null;

function database(): Promise<IDBPDatabase<Schema>> {
  if (!opening) {
    opening = openDB<Schema>(DATABASE, 1, {
      upgrade(db) {
        db.createObjectStore("answers");
      },
      // Sign-out deletes the database: let it.
      blocking() {
        void opening?.then((db) => db.close());
        opening = null;
      },
    });
    opening.catch(() => {
      opening = null;
    });
  }
  return opening;
}

async function keep(key: string, response: Response): Promise<void> {
  const body = await response.text();
  const db = await database();
  await db.put("answers", { body, type: response.headers.get("content-type") ?? "application/json" }, key);
}

async function forgetAll(): Promise<void> {
  const db = await database();
  await db.clear("answers");
}

/**
 * The session ended (a 401, the live layer's `unauthorized`): forget every kept answer before
 * going to sign-in, so the next page does not start from the ended session's. Waits at most
 * 500 ms: going to sign-in must not hang on a busy database.
 */
export function forgetKeptAnswers(): Promise<void> {
  if (typeof indexedDB === "undefined") return Promise.resolve();
  const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, 500));
  return Promise.race([forgetAll().catch(() => undefined), gaveUp]);
}

async function lastAnswer(key: string): Promise<Answer | undefined> {
  const db = await database();
  return db.get("answers", key);
}

async function forget(key: string): Promise<void> {
  const db = await database();
  await db.delete("answers", key);
}

// ───────────── starting from the kept answers ─────────────

/** Past this, a page that painted no board reads from the server as usual. */
const START_WINDOW_MS = 5_000;
let startWindowOpen = true;
const startWindowTimer = typeof window === "undefined" ? null : setTimeout(closeStartWindow, START_WINDOW_MS);

/**
 * The start is over (the first board painted): from now on every read goes to the server first.
 * What waited for it (the server's checks, the full sync, the service worker) starts in the tasks
 * after this one: called from the board's first commit, it made that commit's task the longest
 * of the start (bench browser-board, `--trace-dir`: 35 ms of checks behind the board's render).
 */
export function closeStartWindow(): void {
  const wasOpen = startWindowOpen;
  startWindowOpen = false;
  if (startWindowTimer) clearTimeout(startWindowTimer);
  startChecks();
  if (wasOpen) {
    const waiting = startWaiters.splice(0);
    if (waiting.length)
      setTimeout(() => {
        for (const resolve of waiting) resolve();
      }, 0);
  }
}

const startWaiters: (() => void)[] = [];

/**
 * Resolves when the start is over: the first board painted, or 5 s passed. For work that would
 * compete with a first visit's paint for the one database connection or the CPU (the full sync
 * of a project's items, the service worker's precaching).
 */
export function startWindowClosed(): Promise<void> {
  if (!startWindowOpen || typeof window === "undefined") return Promise.resolve();
  return new Promise((resolve) => startWaiters.push(resolve));
}

/**
 * How long the server's checks of what a page started from wait for the first paint. Asked at
 * once, they compete for the CPU with that paint: on a 2-core machine whose server runs on the
 * same cores, two dozen answers at start doubled a warm board's first paint (920 vs 490 ms with
 * the network off, bench browser-board). Held until the board paints; a page that starts on
 * another screen (which has no paint signal) waits at most a second, so it is corrected within a
 * second as well. A board start waits for its paint, up to the start window: on a slow machine a
 * one-second limit fired before the paint and its checks (and the project's catch-up behind
 * them) slowed that paint further (1.6 s against 1.0 s offline, same machine).
 */
const CHECKS_WAIT_MS = 1_000;
/** A board's page: a project's board, or a cycle's, module's or view's (public/preload-local.js's test). */
const BOARD_PATH = /^\/[^/]+\/projects\/[0-9a-f-]{36}\/(?:issues\/?$|(?:cycles|modules|views)\/[0-9a-f-]{36}\/?$)/;
const startsOnBoard = typeof location !== "undefined" && BOARD_PATH.test(location.pathname);
let checksHeld = typeof window !== "undefined";
const heldChecks: (() => void)[] = [];
const checksTimer = checksHeld ? setTimeout(startChecks, startsOnBoard ? START_WINDOW_MS : CHECKS_WAIT_MS) : null;

function startChecks(): void {
  if (!checksHeld) return;
  checksHeld = false;
  if (checksTimer) clearTimeout(checksTimer);
  runSpread(heldChecks.splice(0));
}

/** A task's share of the held checks: each asks the server, and two dozen at once are a long task. */
const CHECKS_BUDGET_MS = 8;

/** Run `checks` in order, from the next task on, each task stopping once its budget is spent. */
function runSpread(checks: (() => void)[]): void {
  if (!checks.length) return;
  const runSome = () => {
    const until = performance.now() + CHECKS_BUDGET_MS;
    do (checks.shift() as () => void)();
    while (checks.length && performance.now() < until);
    if (checks.length) setTimeout(runSome, 0);
  };
  setTimeout(runSome, 0);
}

/**
 * Run `check` (a server read behind something already shown from a kept answer or the local
 * copy) once the first screen has painted, or at once when that time is past.
 */
export function afterFirstPaint(check: () => void): void {
  if (checksHeld) heldChecks.push(check);
  else check();
}

/** Resolves once the server checks may start (see afterFirstPaint). */
export function firstPaintDone(): Promise<void> {
  return new Promise((resolve) => afterFirstPaint(resolve));
}

/** Keys answered from their kept copy in this page: each only once, later reads ask the server. */
const answeredFromKept = new Set<string>();

type ChangeListener = { pattern: RegExp; reread: (pathname: string) => void };
const changeListeners = new Set<ChangeListener>();

/**
 * Read again, from the server, what a store read from a kept answer at start when the server's
 * own answer turned out different (or a refusal). `pattern` matches the pathname.
 */
export function onKeptAnswerChanged(pattern: RegExp, reread: (pathname: string) => void): () => void {
  const listener = { pattern, reread };
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

function announceChange(pathname: string): void {
  for (const listener of changeListeners) if (listener.pattern.test(pathname)) listener.reread(pathname);
}

/** Ask the server behind a kept answer already given; keep and announce what changed. */
async function revalidate(request: Request, key: string, pathname: string, kept: Answer): Promise<void> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    return; // Offline: the kept answer stands, as it would have anyway.
  }
  if (response.ok) {
    const body = await response.text();
    if (body === kept.body) return;
    const db = await database();
    await db.put("answers", { body, type: response.headers.get("content-type") ?? kept.type }, key);
  } else if (response.status === 401) {
    await forgetAll();
  } else {
    // Refused (the membership or the project is gone) or failing: don't start from it again.
    await forget(key);
  }
  announceChange(pathname);
}

/**
 * ky's fetch: the kept reads are remembered when answered and given back when the network fails
 * (marked with `x-tideline-offline: 1`) or, at start, at once with the server asked behind them
 * (marked `x-tideline-kept: 1`); every other request is plain fetch.
 */
export async function fetchWithLastAnswers(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url, typeof location === "undefined" ? undefined : location.href);
  if (typeof indexedDB === "undefined") return fetch(input, init);
  const answersFor = request.method === "PATCH" ? ANSWERS_FOR[url.pathname] : undefined;
  if (answersFor) {
    const response = await fetch(input, init);
    if (response.ok) keep(answersFor, response.clone()).catch(() => undefined);
    return response;
  }
  if (!isKeptRead(url.pathname)) return fetch(input, init);
  const key = url.pathname + url.search;
  if (request.method === "GET" && startWindowOpen && !answeredFromKept.has(key)) {
    answeredFromKept.add(key);
    const kept = await lastAnswer(key).catch(() => undefined);
    if (kept) {
      // A request of its own: the caller's (with ky's timeout signal) is done with by then.
      const check = new Request(request.url, { headers: request.headers, credentials: request.credentials });
      // Who am I is checked at once: an ended session must not wait for a paint to go to sign-in.
      if (url.pathname === SESSION_READ) void revalidate(check, key, url.pathname, kept);
      else afterFirstPaint(() => void revalidate(check, key, url.pathname, kept));
      return new Response(kept.body, {
        status: 200,
        headers: { "content-type": kept.type, [KEPT_ANSWER_HEADER]: "1" },
      });
    }
  }
  if (request.method === "PATCH") {
    // A change's answer is the object as a read would now give it (the board's layout, the
    // profile): kept, so a reload offline shows the change, not the read before it.
    const response = await fetch(input, init);
    if (response.ok) keep(key, response.clone()).catch(() => undefined);
    return response;
  }
  if (request.method !== "GET") return fetch(input, init);
  try {
    const response = await fetch(input, init);
    if (response.ok) keep(key, response.clone()).catch(() => undefined);
    // The session ended (expired, signed out elsewhere): its answers must not start the app offline.
    else if (response.status === 401) forgetAll().catch(() => undefined);
    return response;
  } catch (error) {
    const kept = await lastAnswer(key).catch(() => undefined);
    if (!kept) throw error;
    return new Response(kept.body, { status: 200, headers: { "content-type": kept.type, "x-tideline-offline": "1" } });
  }
}
