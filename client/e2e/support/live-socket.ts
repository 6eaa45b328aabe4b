/**
 * A look at the page's live WebSocket (GET /live) from the tests. An init script wraps the
 * browser's WebSocket constructor before the app loads, so every socket the app opens to the
 * live endpoint is remembered: a test can read their states and drop them.
 *
 * Why dropping needs help: Chromium's offline emulation (`context.setOffline(true)`) fails new
 * requests and new WebSocket handshakes, but leaves a socket that is already open OPEN and
 * silently discards what the server sends on it — the app keeps saying "connected" and never
 * hears of the changes made meanwhile. Closing it from the page does not help either: the
 * closing handshake cannot complete while offline, so the socket sits in CLOSING and its
 * `close` event only fires once the network is back. `dropLiveSockets` therefore does what a
 * browser does when it notices a dead connection: it closes the socket and gives the app the
 * abnormal `close` (1006, not clean) at once; the late native `close` is kept from the app.
 *
 * `channelSynced` watches the frames of the page's live socket for the server's sync reply on a
 * channel: from then on the app has caught up once and listens (lib/live.ts `onSynced`).
 *
 * Also a reload guard: `markPage` leaves a value on `window` that only a full page load removes,
 * so a spec can prove that what it saw arrived without one.
 */
import { type BrowserContext, expect, type Page } from "@playwright/test";

type Probe = { sockets: WebSocket[]; dropped: WeakSet<WebSocket>; marker?: string };
type ProbeWindow = Window & { __e2eLive?: Probe };

/** Start remembering /live sockets in every page of `context` (call before opening the pages). */
export async function trackLiveSockets(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const probe: Probe = { sockets: [], dropped: new WeakSet() };
    (window as ProbeWindow).__e2eLive = probe;
    const Native = window.WebSocket;
    // Same constructor, constants and prototype: the app sees an ordinary WebSocket.
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (!new URL(String(url), location.href).pathname.startsWith("/live")) return;
        probe.sockets.push(this);
        // Registered before the app's listeners: after a drop the app already had its close.
        this.addEventListener("close", (event) => {
          if (event.isTrusted && probe.dropped.has(this)) event.stopImmediatePropagation();
        });
      }
    };
  });
}

/** readyState of every /live socket the page has opened so far, oldest first (1 = open, 3 = closed). */
export function liveSocketStates(page: Page): Promise<number[]> {
  return page.evaluate(() => ((window as ProbeWindow).__e2eLive?.sockets ?? []).map((s) => s.readyState));
}

/** How many /live sockets the page holds open, as far as the app can tell (dropped ones don't count). */
export function openLiveSockets(page: Page): Promise<number> {
  return page.evaluate(() => {
    const probe = (window as ProbeWindow).__e2eLive;
    return (probe?.sockets ?? []).filter((s) => s.readyState === WebSocket.OPEN && !probe?.dropped.has(s)).length;
  });
}

/**
 * Drop the page's open /live sockets the way a lost connection ends (see the file comment).
 * Returns how many were open.
 */
export function dropLiveSockets(page: Page): Promise<number> {
  return page.evaluate(() => {
    const probe = (window as ProbeWindow).__e2eLive;
    if (!probe) throw new Error("trackLiveSockets was not installed before the page loaded");
    const open = probe.sockets.filter((s) => s.readyState === WebSocket.OPEN && !probe.dropped.has(s));
    for (const socket of open) {
      probe.dropped.add(socket);
      socket.close();
      socket.dispatchEvent(new CloseEvent("close", { code: 1006, reason: "", wasClean: false }));
    }
    return open.length;
  });
}

/**
 * Whether a frame is the server's sync step 2 for the channel `name`: its address (a var-string:
 * the channel's name, then NUL and the subscription's session id, as every subscription has its
 * own address on the socket), then message type 0 (sync) and sync step 1 (the server's answer).
 */
function isSyncStepTwoFor(payload: Buffer, name: string): boolean {
  const length = payload[0];
  // Addresses here are under 128 bytes: a one-byte var-uint length.
  if (length === undefined || length > 127) return false;
  const address = payload.subarray(1, 1 + length).toString("utf8");
  if (address !== name && !address.startsWith(`${name}\0`)) return false;
  return payload[1 + length] === 0 && payload[2 + length] === 1;
}

/**
 * Resolves when the page's live socket gets the server's reply to its sync of channel `name`
 * (e.g. `project.<id>`): a Hocuspocus frame [name as a var-string, 0 = Sync, 1 = sync step 2].
 * Call before the page opens the channel; `timeout` keeps a missing reply from hanging the test.
 */
export function channelSynced(page: Page, name: string, timeout = 15_000): Promise<void> {
  const synced = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`channel ${name} did not sync within ${timeout} ms`)), timeout);
    page.on("websocket", (socket) => {
      if (!new URL(socket.url()).pathname.startsWith("/live")) return;
      socket.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" || !isSyncStepTwoFor(payload, name)) return;
        clearTimeout(timer);
        resolve();
      });
    });
  });
  // Rejecting before the caller awaits must not count as an unhandled rejection.
  synced.catch(() => undefined);
  return synced;
}

/** Leave a mark on the page that a reload would wipe out. */
export async function markPage(page: Page, marker: string): Promise<void> {
  await page.evaluate((value) => {
    const probe = (window as ProbeWindow).__e2eLive;
    if (!probe) throw new Error("trackLiveSockets was not installed before the page loaded");
    probe.marker = value;
  }, marker);
}

/** The page still holds its mark: nothing reloaded it. */
export async function expectNotReloaded(page: Page, marker: string): Promise<void> {
  expect(await page.evaluate(() => (window as ProbeWindow).__e2eLive?.marker), "the page was not reloaded").toBe(
    marker,
  );
}
