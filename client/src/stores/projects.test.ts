import { describe, expect, it } from "vitest";
import { optimistic } from "../lib/optimistic";
import { markFavorite, markLeft, type Project, projects } from "./projects";

function project(id: string, network: number, extra: Partial<Project> = {}): Project {
  return {
    id,
    workspace: "w",
    name: id,
    identifier: id.toUpperCase(),
    logo_props: {},
    cover_image: null,
    network,
    archived_at: null,
    is_member: true,
    member_role: 15,
    sort_order: null,
    is_favorite: false,
    created_at: "",
    updated_at: "",
    project_lead: null,
    cycle_view: true,
    module_view: true,
    issue_views_view: true,
    page_view: true,
    inbox_view: false,
    is_time_tracking_enabled: false,
    is_epic_enabled: false,
    ...extra,
  };
}

describe("optimistic", () => {
  it("keeps the change when the call succeeds", async () => {
    let value = 1;
    const result = await optimistic({
      apply: () => {
        value = 2;
        return () => {
          value = 1;
        };
      },
      call: async () => "ok",
      error: "failed",
    });
    expect(result).toBe("ok");
    expect(value).toBe(2);
  });

  it("undoes the change and resolves undefined when the call fails", async () => {
    let value = 1;
    const result = await optimistic({
      apply: () => {
        value = 2;
        return () => {
          value = 1;
        };
      },
      call: async () => {
        throw new Error("refused");
      },
      error: "failed",
    });
    expect(result).toBeUndefined();
    expect(value).toBe(1);
  });
});

describe("project list changes", () => {
  it("leaving a private project removes it from the list; the undo brings it back", () => {
    projects.bySlug.acme = [project("pub", 2), project("priv", 0)];
    projects.memberCounts.priv = 3;
    const undo = markLeft("acme", "priv");
    expect(projects.bySlug.acme?.map((p) => p.id)).toEqual(["pub"]);
    expect(projects.memberCounts.priv).toBe(2);
    undo();
    expect(projects.bySlug.acme?.map((p) => p.id)).toEqual(["pub", "priv"]);
    expect(projects.memberCounts.priv).toBe(3);
  });

  it("leaving a public project keeps it listed, as not joined", () => {
    projects.bySlug.acme = [project("pub", 2, { is_favorite: true })];
    markLeft("acme", "pub");
    expect(projects.bySlug.acme?.[0]).toMatchObject({ is_member: false, member_role: null, is_favorite: false });
  });

  it("marks and unmarks a favorite", () => {
    projects.bySlug.acme = [project("pub", 2)];
    const undo = markFavorite("acme", "pub", true);
    expect(projects.bySlug.acme?.[0]?.is_favorite).toBe(true);
    undo();
    expect(projects.bySlug.acme?.[0]?.is_favorite).toBe(false);
  });
});
