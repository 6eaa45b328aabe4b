/**
 * The app's half of the prepaint (public/prepaint.js paints the board of the last visit before
 * the app has started): keeping what a board looks like when the page is left, and taking over
 * from the overlay once the app's own board has painted.
 *
 * What is kept (localStorage `tideline:prepaint`, one board — the last one left): the markup of
 * #root, the text of the page's styles in order (the board's own come with its lazily loaded
 * screens, not on the page when the prepaint runs), the build (its meta, written by
 * client/vite.config.ts) and the user. It is kept only when it can be painted as it was: a board address, the app's board painted in this
 * page, nothing scrolled (the virtual lists hold only the rows in view, and a scroll position is
 * not markup), no overlay still up, and the local copy switched on (the prepaint is part of it).
 * It is deleted at sign-out (every store reset), when the project's local copy is dropped (rights
 * lost) and when the local copy is switched off.
 */
import { useEffect } from "react";
import { isLocalDbEnabled } from "./local-db/flag";
import { onStoresReset } from "./store";

/** Also written in public/prepaint.js and lib/local-db/flag.ts (which this file imports). */
export const PREPAINT_KEY = "tideline:prepaint";
const GLOBAL = "__tidelinePrepaint";
/** How many frames a replayed click looks for its element. */
const REPLAY_FRAMES = 30;
/** Larger markup or styles are not kept: reading them back would cost the first frame what it saves. */
const MAX_MARKUP = 750_000;
const MAX_STYLES = 500_000;
/** The boards the prepaint covers (public/prepaint.js paints whatever was kept for the path). */
const BOARD_PATH = /^\/[^/]+\/projects\/([0-9a-f-]{36})\/(?:issues\/?$|(?:cycles|modules|views)\/[0-9a-f-]{36}\/?$)/;

type PendingAction = { itemId: string } | { href: string };
type Overlay = { path: string; userId?: string; finish: () => PendingAction | null };
export type KeptPrepaint = {
  v: 2;
  path: string;
  userId: string;
  build: string;
  css: string;
  html: string;
};

const overlay = (): Overlay | undefined => (globalThis as Record<string, unknown>)[GLOBAL] as Overlay | undefined;

/** The overlay's address, while it is still up. */
export function prepaintShownFor(): string | null {
  const shown = overlay();
  return shown && document.getElementById("prepaint") ? shown.path : null;
}

/**
 * The app's board has painted: take the overlay down (the same board is under it) and do what a
 * click on it meant — open the clicked item's peek, or follow the clicked link — on the app's
 * elements, which the click would have reached had the app been there.
 */
export function handOverPrepaint(): void {
  const pending = overlay()?.finish() ?? null;
  if (!pending) return;
  const find = () => {
    const root = document.getElementById("root");
    return "itemId" in pending
      ? root?.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(pending.itemId)}"]`)
      : root?.querySelector<HTMLElement>(`a[href="${CSS.escape(pending.href)}"]`);
  };
  // A virtual list renders its rows once it has measured itself: look for a few frames.
  let frames = 0;
  const replay = () => {
    const target = find();
    if (target) {
      performance.mark("tideline:prepaint:replayed");
      target.click();
    } else if (++frames < REPLAY_FRAMES) requestAnimationFrame(replay);
  };
  replay();
}

/** The overlay is not this page's to show (an error, another address): remove it. */
export function dropPrepaint(): void {
  overlay()?.finish();
}

/**
 * For a board's screen that shows something else at the board's address (not found, made
 * private, archived, no access, failed): the picture of the board must not stay over it.
 */
export function useDropPrepaint(instead: boolean): void {
  useEffect(() => {
    if (instead) dropPrepaint();
  }, [instead]);
}

/**
 * Called with the app's address and who is signed in (undefined while unknown, null when no
 * one): the overlay goes when the app is elsewhere, and the kept board with it when it was
 * another user's or no one is signed in any more.
 */
export function checkPrepaint(pathname: string, userId: string | null | undefined): void {
  const shown = overlay();
  if (!shown || !document.getElementById("prepaint")) return;
  const otherUser = userId === null || (userId !== undefined && shown.userId !== userId);
  if (otherUser) clearPrepaint();
  if (otherUser || shown.path !== pathname) shown.finish();
}

/** Forget the kept board (all of it, or only when it is of `projectId`). */
export function clearPrepaint(projectId?: string): void {
  try {
    if (projectId) {
      const kept = readKept();
      if (!kept || BOARD_PATH.exec(kept.path)?.[1] !== projectId) return;
    }
    localStorage.removeItem(PREPAINT_KEY);
  } catch {
    // No storage: nothing was kept.
  }
}

export function readKept(): KeptPrepaint | null {
  try {
    const raw = localStorage.getItem(PREPAINT_KEY);
    return raw ? (JSON.parse(raw) as KeptPrepaint) : null;
  } catch {
    return null;
  }
}

/** Every class name used in `root` (its own and its descendants'). */
function classesIn(root: Element): Set<string> {
  const used = new Set<string>(root.classList);
  for (const el of root.querySelectorAll("[class]")) for (const name of el.classList) used.add(name);
  return used;
}

const CLASS_TOKEN = /\.(-?[_a-zA-Z][\w-]*)/g;

/**
 * Whether a selector list can match something of the picture: one of its selectors names only
 * classes the picture uses (a rule for another screen names one it does not). Selectors it cannot
 * split safely (a comma inside parentheses) are kept.
 */
function selectorMayMatch(selectorText: string, used: ReadonlySet<string>): boolean {
  const parts = selectorText.split(",");
  if (parts.some((part) => (part.match(/\(/g)?.length ?? 0) !== (part.match(/\)/g)?.length ?? 0))) return true;
  return parts.some((part) => [...part.matchAll(CLASS_TOKEN)].every((m) => used.has(m[1] as string)));
}

/** The rule's text if it may apply to the picture, "" otherwise (grouping rules keep what may). */
function ruleFor(rule: CSSRule, used: ReadonlySet<string>): string {
  if (rule instanceof CSSStyleRule) return selectorMayMatch(rule.selectorText, used) ? rule.cssText : "";
  // A shadow tree ignores @font-face: the page's own apply through inheritance.
  if (rule instanceof CSSFontFaceRule) return "";
  if (rule instanceof CSSGroupingRule) {
    const inner = [...rule.cssRules].map((r) => ruleFor(r, used)).filter(Boolean);
    if (inner.length === 0) return "";
    const header = rule.cssText.slice(0, rule.cssText.indexOf("{"));
    return `${header}{\n${inner.join("\n")}\n}`;
  }
  return rule.cssText;
}

/**
 * The page's styles, in the page's order, as far as they may apply to the picture: the whole
 * app's are several hundred kB, and every open would parse them again before its first frame.
 */
function pageStyles(picture: Element): string {
  const used = classesIn(picture);
  const parts: string[] = [];
  for (const sheet of document.styleSheets) {
    try {
      for (const rule of sheet.cssRules) {
        const text = ruleFor(rule, used);
        if (text) parts.push(text);
      }
    } catch {
      // A sheet of another origin cannot be read (the app has none).
    }
  }
  return parts.join("\n");
}

/**
 * A copy of `root` to keep: what says the board is live and up to date says "connecting" in the
 * picture — painted before the app, it is neither until the app has connected.
 */
function pictureOf(root: HTMLElement): HTMLElement {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const dot of copy.querySelectorAll(".wi-live-status")) {
    dot.className = "wi-live-status wi-live-status-connecting";
    dot.replaceChildren(Object.assign(document.createElement("span"), { className: "wi-live wi-live-connecting" }));
  }
  return copy;
}

/** Whether anything inside `root` is scrolled away from its start. */
function anythingScrolled(root: Element): boolean {
  for (const el of root.querySelectorAll("*")) if (el.scrollTop !== 0 || el.scrollLeft !== 0) return true;
  return false;
}

/**
 * What to keep of the page as it is now, or null when it cannot be painted back as it is (see
 * the file's comment). `userId` is the signed-in user's.
 */
export function capturePrepaint(userId: string | undefined, boardPainted: boolean): KeptPrepaint | null {
  if (!userId || !boardPainted || !isLocalDbEnabled()) return null;
  const path = location.pathname;
  if (!BOARD_PATH.test(path) || prepaintShownFor()) return null;
  const root = document.getElementById("root");
  // The build's name (client/vite.config.ts writes it; a development server has none: no prepaint).
  const build = document.querySelector('meta[name="tideline-build"]')?.getAttribute("content");
  if (!root || !build || anythingScrolled(root)) return null;
  const picture = pictureOf(root);
  const html = picture.innerHTML;
  if (html.length > MAX_MARKUP) return null;
  const css = pageStyles(picture);
  if (css.length > MAX_STYLES) return null;
  return { v: 2, path, userId, build, css, html };
}

/** The address whose board has painted and is still on screen (null: none is). */
let paintedBoardPath: string | null = null;

/**
 * The app's board has painted at this address; the returned function says it is gone (the
 * board unmounted). Only a painted board is kept: not a page that never showed one, nor a board
 * still loading after the person came back to it.
 */
export function markBoardPainted(): () => void {
  const path = location.pathname;
  paintedBoardPath = path;
  return () => {
    if (paintedBoardPath === path) paintedBoardPath = null;
  };
}

/**
 * Keep the board when the page is hidden or left (a tab switched away may never come back: a
 * phone discards it). `currentUserId` gives the signed-in user at that moment.
 */
export function startPrepaintKeeping(currentUserId: () => string | undefined): () => void {
  const keep = () => {
    const kept = capturePrepaint(currentUserId(), paintedBoardPath === location.pathname);
    if (!kept) return;
    try {
      localStorage.setItem(PREPAINT_KEY, JSON.stringify(kept));
    } catch {
      // Over the quota: the next open paints from the app as before.
      clearPrepaint();
    }
  };
  const onVisibility = () => {
    if (document.visibilityState === "hidden") keep();
  };
  window.addEventListener("pagehide", keep);
  document.addEventListener("visibilitychange", onVisibility);
  return () => {
    window.removeEventListener("pagehide", keep);
    document.removeEventListener("visibilitychange", onVisibility);
  };
}

// Signing out (every store reset) forgets the kept board with the rest of the user's copy.
onStoresReset(() => clearPrepaint());
