import { PAGE_ACCESS, ROLE } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import {
  filterPages,
  highestRole,
  moveTargets,
  type PageFacts,
  pagePermissions,
  pageTab,
  pageTitle,
  pageTreeRows,
  tabCounts,
} from "./page-logic";

let n = 0;
function page(overrides: Partial<PageFacts> = {}): PageFacts {
  n += 1;
  return {
    id: `p${n}`,
    name: `Page ${n}`,
    owned_by: "owner",
    access: PAGE_ACCESS.public,
    is_locked: false,
    archived_at: null,
    is_favorite: false,
    project_ids: ["proj"],
    created_at: `2026-01-${String(n).padStart(2, "0")}T10:00:00.000Z`,
    updated_at: `2026-01-${String(n).padStart(2, "0")}T10:00:00.000Z`,
    ...overrides,
  };
}

describe("tabs", () => {
  it("puts archived pages in Archived whatever their access, the rest by access", () => {
    expect(pageTab({ access: PAGE_ACCESS.public, archived_at: null })).toBe("public");
    expect(pageTab({ access: PAGE_ACCESS.private, archived_at: null })).toBe("private");
    expect(pageTab({ access: PAGE_ACCESS.private, archived_at: "2026-01-01T00:00:00Z" })).toBe("archived");
    const list = [page(), page(), page({ access: PAGE_ACCESS.private }), page({ archived_at: "2026-02-01T00:00:00Z" })];
    expect(tabCounts(list)).toEqual({ public: 2, private: 1, archived: 1 });
  });

  it("shows Untitled for an empty or blank name", () => {
    expect(pageTitle("")).toBe("Untitled");
    expect(pageTitle("   ")).toBe("Untitled");
    expect(pageTitle(" Roadmap ")).toBe("Roadmap");
  });
});

describe("filterPages", () => {
  const a = page({ name: "beta notes", updated_at: "2026-03-05T00:00:00Z", created_at: "2026-01-01T00:00:00Z" });
  const b = page({ name: "Alpha plan", updated_at: "2026-03-01T00:00:00Z", created_at: "2026-01-03T00:00:00Z" });
  const c = page({
    name: "",
    updated_at: "2026-03-03T00:00:00Z",
    created_at: "2026-01-02T00:00:00Z",
    is_favorite: true,
  });
  const hidden = page({ name: "Alpha private", access: PAGE_ACCESS.private });
  const list = [a, b, c, hidden];

  it("sorts by last edited (default), name and created", () => {
    expect(filterPages(list, { tab: "public" }).map((p) => p.id)).toEqual([a.id, c.id, b.id]);
    expect(filterPages(list, { tab: "public", sort: "name" }).map((p) => p.id)).toEqual([b.id, a.id, c.id]);
    expect(filterPages(list, { tab: "public", sort: "created" }).map((p) => p.id)).toEqual([b.id, c.id, a.id]);
  });

  it("searches the shown name, case-insensitively, within the tab", () => {
    expect(filterPages(list, { tab: "public", search: "ALPHA" }).map((p) => p.id)).toEqual([b.id]);
    expect(filterPages(list, { tab: "public", search: " untitled " }).map((p) => p.id)).toEqual([c.id]);
    expect(filterPages(list, { tab: "private", search: "alpha" }).map((p) => p.id)).toEqual([hidden.id]);
    expect(filterPages(list, { tab: "public", search: "nothing" })).toEqual([]);
  });

  it("keeps only favorites when asked", () => {
    expect(filterPages(list, { tab: "public", favoritesOnly: true }).map((p) => p.id)).toEqual([c.id]);
  });

  it("does not change the input", () => {
    const copy = [...list];
    filterPages(list, { tab: "public", sort: "name" });
    expect(list).toEqual(copy);
  });
});

describe("pagePermissions", () => {
  const viewer = (userId: string, role: number, projectRole = role) => ({ userId, role, projectRole });

  it("lets the owner do everything on an active page", () => {
    const p = pagePermissions(page({ owned_by: "me", access: PAGE_ACCESS.private }), viewer("me", ROLE.member));
    expect(p).toMatchObject({
      isOwner: true,
      canEdit: true,
      readOnly: null,
      canChangeAccess: true,
      canLock: true,
      canArchive: true,
      canRestore: false,
      canDelete: false,
      canMove: true,
      canDuplicate: true,
      canFavorite: true,
    });
  });

  it("lets members edit a public page but not manage it; admins manage it", () => {
    const pub = page({ owned_by: "someone" });
    const member = pagePermissions(pub, viewer("me", ROLE.member));
    expect(member).toMatchObject({ canEdit: true, canLock: false, canArchive: false, canChangeAccess: false });
    const admin = pagePermissions(pub, viewer("me", ROLE.admin));
    expect(admin).toMatchObject({ canEdit: true, canLock: true, canArchive: true, canMove: true });
  });

  it("gives guests read-only access, no favorites and no duplicates", () => {
    const p = pagePermissions(page({ owned_by: "someone" }), viewer("me", ROLE.guest));
    expect(p).toMatchObject({ canEdit: false, readOnly: "noAccess", canFavorite: false, canDuplicate: false });
  });

  it("makes locked and archived pages read-only, and only archived ones restorable or deletable", () => {
    const locked = pagePermissions(page({ owned_by: "me", is_locked: true }), viewer("me", ROLE.member));
    expect(locked).toMatchObject({ canEdit: false, readOnly: "locked", canLock: true, canRestoreVersion: false });
    const archived = pagePermissions(
      page({ owned_by: "me", is_locked: true, archived_at: "2026-01-01T00:00:00Z" }),
      viewer("me", ROLE.member),
    );
    expect(archived).toMatchObject({
      canEdit: false,
      readOnly: "archived",
      canLock: false,
      canArchive: false,
      canRestore: true,
      canDelete: true,
      canMove: false,
      canFavorite: false,
    });
  });

  it("needs member in this project to duplicate here", () => {
    const p = pagePermissions(page({ owned_by: "x" }), viewer("me", ROLE.admin, ROLE.guest));
    expect(p.canDuplicate).toBe(false);
  });

  it("uses the highest role across the page's projects", () => {
    const roles: Record<string, number> = { a: ROLE.guest, b: ROLE.admin };
    expect(highestRole(["a", "b"], (id) => roles[id])).toBe(ROLE.admin);
    expect(highestRole(["a", "zzz"], (id) => roles[id])).toBe(ROLE.guest);
    expect(highestRole([], (id) => roles[id], ROLE.member)).toBe(ROLE.member);
  });
});

describe("moveTargets", () => {
  const projects = [
    { id: "here", archived_at: null, member_role: ROLE.admin },
    { id: "member", archived_at: null, member_role: ROLE.member },
    { id: "admin", archived_at: null, member_role: ROLE.admin },
    { id: "guest", archived_at: null, member_role: ROLE.guest },
    { id: "archived", archived_at: "2026-01-01T00:00:00Z", member_role: ROLE.admin },
    { id: "outside", archived_at: null, member_role: null },
  ];
  it("offers projects where the owner is a member, or where someone else is an admin", () => {
    const p = { project_ids: ["here"] };
    expect(moveTargets(projects, "here", p, true).map((x) => x.id)).toEqual(["member", "admin"]);
    expect(moveTargets(projects, "here", p, false).map((x) => x.id)).toEqual(["admin"]);
  });
});

describe("pageTreeRows", () => {
  const node = (id: string, parent: string | null = null) => ({ id, parent });
  const shape = (rows: { page: { id: string }; depth: number; children: number }[]) =>
    rows.map((r) => `${"  ".repeat(r.depth)}${r.page.id}(${r.children})`);

  it("nests sub-pages under an expanded parent, in the list's order", () => {
    const list = [node("a"), node("c", "a"), node("b"), node("d", "a"), node("e", "c")];
    expect(shape(pageTreeRows(list, new Set()))).toEqual(["a(2)", "b(0)"]);
    expect(shape(pageTreeRows(list, new Set(["a"])))).toEqual(["a(2)", "  c(1)", "  d(0)", "b(0)"]);
    expect(shape(pageTreeRows(list, new Set(["a", "c"])))).toEqual(["a(2)", "  c(1)", "    e(0)", "  d(0)", "b(0)"]);
    // A child's expansion shows nothing while its parent is collapsed.
    expect(shape(pageTreeRows(list, new Set(["c"])))).toEqual(["a(2)", "b(0)"]);
  });

  it("puts a page whose parent is not in the list at the top", () => {
    const list = [node("child", "elsewhere"), node("x")];
    expect(shape(pageTreeRows(list, new Set()))).toEqual(["child(0)", "x(0)"]);
  });

  it("lists everything at the top when flat (searching)", () => {
    const list = [node("a"), node("c", "a")];
    expect(shape(pageTreeRows(list, new Set(), true))).toEqual(["a(0)", "c(0)"]);
  });

  it("shows every page of a parent loop instead of losing them", () => {
    const list = [node("a", "b"), node("b", "a"), node("s", "s")];
    const ids = pageTreeRows(list, new Set(["a", "b"])).map((r) => r.page.id);
    expect(ids.sort()).toEqual(["a", "b", "s"]);
  });
});
