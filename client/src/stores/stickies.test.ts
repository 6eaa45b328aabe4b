import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createSticky,
  editStickyText,
  flushStickyText,
  hasUnsavedSticky,
  matchesStickyQuery,
  mergeFetchedStickies,
  RECENT_STICKY_PARAMS,
  STICKY_SAVE_DELAY_MS,
  type Sticky,
  stickies,
  stickyCursor,
  stickyEventResult,
  stickyListParams,
  updateSticky,
} from "./stickies";

function sticky(id: string, over: Partial<Sticky> = {}): Sticky {
  return {
    id,
    created_at: "2025-01-01T00:00:00.000Z",
    updated_at: "2025-01-01T00:00:00.000Z",
    deleted_at: null,
    name: null,
    description_html: `<p>${id}</p>`,
    description_stripped: id,
    logo_props: {},
    color: null,
    background_color: null,
    sort_order: 65535,
    workspace: "w1",
    owner: "u1",
    created_by: "u1",
    updated_by: "u1",
    ...over,
  };
}

const ids = (list: Sticky[]) => list.map((s) => s.id);
const never = () => false;

describe("stickyCursor / stickyListParams (per_page:page:offset, from the number held)", () => {
  it("starts the next page right after the stickies held", () => {
    expect(stickyCursor(0)).toBe("20:0:0");
    expect(stickyCursor(20)).toBe("20:1:0");
    // One created here since the first page: the next starts one further, nothing repeats.
    expect(stickyCursor(21)).toBe("20:1:1");
    // One deleted here: nothing is skipped.
    expect(stickyCursor(19)).toBe("20:0:19");
    expect(stickyCursor(45, 40)).toBe("40:1:5");
  });

  it("sends the search only when there is one, trimmed", () => {
    expect(stickyListParams(0, "")).toEqual({ cursor: "20:0:0", per_page: "20" });
    expect(stickyListParams(20, "  milk ")).toEqual({ cursor: "20:1:0", per_page: "20", query: "milk" });
  });

  it("reads the recent sticky as the newest one alone", () => {
    expect(RECENT_STICKY_PARAMS).toEqual({ cursor: "1:0:0", per_page: "1" });
  });
});

describe("matchesStickyQuery (the server's search: text or name, any case)", () => {
  it("matches the text or the name, ignoring case and outer spaces", () => {
    const s = sticky("a", { name: "Groceries", description_stripped: "Milk and EGGS" });
    expect(matchesStickyQuery(s, "eggs")).toBe(true);
    expect(matchesStickyQuery(s, " grocer ")).toBe(true);
    expect(matchesStickyQuery(s, "bread")).toBe(false);
    expect(matchesStickyQuery(s, "")).toBe(true);
    expect(matchesStickyQuery(sticky("b", { description_stripped: null }), "x")).toBe(false);
  });
});

describe("stickyEventResult (live sticky.* from the user's channel)", () => {
  const held = [sticky("b", { sort_order: 2 }), sticky("a", { sort_order: 1 })];
  const opts = { query: "", unsaved: never };

  it("puts a sticky created in another tab first, once", () => {
    const c = sticky("c", { sort_order: 3 });
    const next = stickyEventResult(held, "sticky.created", c, opts);
    expect(ids(next)).toEqual(["c", "b", "a"]);
    expect(stickyEventResult(next, "sticky.created", c, opts)).toBe(next);
  });

  it("leaves a new sticky out of a search it does not match", () => {
    const c = sticky("c", { description_stripped: "call the plumber" });
    expect(stickyEventResult(held, "sticky.created", c, { ...opts, query: "milk" })).toBe(held);
    expect(ids(stickyEventResult(held, "sticky.created", c, { ...opts, query: "PLUMB" }))).toEqual(["c", "b", "a"]);
  });

  it("replaces an updated sticky unless this tab has an unsaved edit of it", () => {
    const changed = sticky("a", { description_html: "<p>theirs</p>", background_color: "green" });
    const next = stickyEventResult(held, "sticky.updated", changed, opts);
    expect(next[1]).toEqual(changed);
    expect(next[0]).toBe(held[0]);
    expect(stickyEventResult(held, "sticky.updated", changed, { ...opts, unsaved: (id) => id === "a" })).toBe(held);
  });

  it("ignores an update of a sticky the list does not hold", () => {
    expect(stickyEventResult(held, "sticky.updated", sticky("zz"), opts)).toBe(held);
  });

  it("removes a deleted sticky", () => {
    expect(ids(stickyEventResult(held, "sticky.deleted", sticky("b"), opts))).toEqual(["a"]);
    expect(stickyEventResult(held, "sticky.deleted", sticky("zz"), opts)).toBe(held);
  });
});

describe("mergeFetchedStickies (a read that began before a change here)", () => {
  it("takes the server's page when nothing changed here", () => {
    const fetched = [sticky("b", { description_html: "<p>new</p>" }), sticky("a")];
    expect(mergeFetchedStickies([sticky("a")], fetched, never)).toEqual(fetched);
  });

  it("keeps the local copy of a sticky changed here, and keeps one deleted here gone", () => {
    const mine = sticky("a", { background_color: "pink" });
    const fetched = [sticky("b"), sticky("a")];
    expect(mergeFetchedStickies([mine], fetched, (id) => id === "a")).toEqual([fetched[0], mine]);
    expect(ids(mergeFetchedStickies([], fetched, (id) => id === "a"))).toEqual(["b"]);
  });

  it("keeps a sticky created here meanwhile first", () => {
    const created = sticky("new", { sort_order: 99 });
    const fetched = [sticky("b", { sort_order: 2 }), sticky("a", { sort_order: 1 })];
    expect(ids(mergeFetchedStickies([created, ...fetched], fetched, (id) => id === "new"))).toEqual(["new", "b", "a"]);
  });
});

describe("the store's rules that need no server", () => {
  afterEach(() => {
    vi.useRealTimers();
    for (const key of Object.keys(stickies.bySlug)) delete stickies.bySlug[key];
  });

  it("creates nothing while the add-new flag is off", async () => {
    expect(await createSticky("ws")).toBeUndefined();
    expect(stickies.bySlug.ws?.creating).toBe(false);
    expect(stickies.bySlug.ws?.items).toEqual([]);
  });

  it("ignores an update of an unknown sticky", async () => {
    stickies.bySlug.ws = {
      items: [sticky("a")],
      loader: "loaded",
      query: "",
      hasMore: false,
      failed: false,
      addNew: false,
      creating: false,
      activeId: null,
      recentId: null,
    };
    expect(await updateSticky("ws", "missing", { background_color: "green" })).toBeUndefined();
    expect(stickies.bySlug.ws.items).toEqual([sticky("a")]);
  });

  it("holds typing as unsaved until the pause, and a flush of unchanged text sends nothing", async () => {
    vi.useFakeTimers();
    stickies.bySlug.ws = {
      items: [sticky("a")],
      loader: "loaded",
      query: "",
      hasMore: false,
      failed: false,
      addNew: false,
      creating: false,
      activeId: null,
      recentId: null,
    };
    // The same text as held: the save finds nothing to send (no server needed here).
    editStickyText("ws", "a", "<p>a</p>");
    expect(hasUnsavedSticky("a")).toBe(true);
    vi.advanceTimersByTime(STICKY_SAVE_DELAY_MS - 1);
    expect(hasUnsavedSticky("a")).toBe(true);
    vi.advanceTimersByTime(1);
    expect(hasUnsavedSticky("a")).toBe(false);
    editStickyText("ws", "a", "<p>a</p>");
    await flushStickyText("a");
    expect(hasUnsavedSticky("a")).toBe(false);
  });
});
