import { describe, expect, it } from "vitest";
import { PROJECT_COVERS } from "../constants/project.ts";
import { ROLE } from "../constants/roles.ts";
import {
  checkProjectIdentifier,
  isAcceptableCoverImage,
  isValidTimezone,
  joinRoleFor,
  projectRoleError,
  removesLastAdmin,
  sortOrderAtTop,
} from "./project-rules.ts";

describe("checkProjectIdentifier", () => {
  it("sanitises to uppercase letters and digits", () => {
    expect(checkProjectIdentifier("my proj!")).toEqual({ ok: true, identifier: "MYPROJ" });
    expect(checkProjectIdentifier("web-2 🚀")).toEqual({ ok: true, identifier: "WEB2" });
  });

  it("refuses what sanitises to nothing", () => {
    const result = checkProjectIdentifier(" !?🚀 ");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/letter or digit/);
  });

  it("refuses more than twelve kept characters instead of cutting them", () => {
    expect(checkProjectIdentifier("ABCDEFGHIJKL").ok).toBe(true);
    expect(checkProjectIdentifier("A-B-C-D-E-F-G-H-I-J-K-L").ok).toBe(true);
    const long = checkProjectIdentifier("ABCDEFGHIJKLM");
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.message).toMatch(/at most 12/);
  });
});

describe("joinRoleFor", () => {
  it("gives the workspace role, member when there is none", () => {
    expect(joinRoleFor(ROLE.admin)).toBe(ROLE.admin);
    expect(joinRoleFor(ROLE.member)).toBe(ROLE.member);
    expect(joinRoleFor(ROLE.guest)).toBe(ROLE.guest);
    expect(joinRoleFor(null)).toBe(ROLE.member);
    expect(joinRoleFor(undefined)).toBe(ROLE.member);
  });
});

describe("projectRoleError", () => {
  it("allows roles up to both the workspace role and the caller's role", () => {
    expect(projectRoleError({ requested: ROLE.member, targetWorkspaceRole: ROLE.member, callerRole: ROLE.admin })).toBe(
      null,
    );
    expect(projectRoleError({ requested: ROLE.guest, targetWorkspaceRole: ROLE.admin, callerRole: ROLE.member })).toBe(
      null,
    );
  });

  it("refuses a role above the workspace role", () => {
    expect(
      projectRoleError({ requested: ROLE.admin, targetWorkspaceRole: ROLE.member, callerRole: ROLE.admin }),
    ).toMatch(/workspace role/);
  });

  it("refuses a role above the caller's own", () => {
    expect(
      projectRoleError({ requested: ROLE.admin, targetWorkspaceRole: ROLE.admin, callerRole: ROLE.member }),
    ).toMatch(/your own/);
  });
});

describe("removesLastAdmin", () => {
  it("is true only when the last admin is demoted or removed", () => {
    expect(removesLastAdmin(1, ROLE.admin, ROLE.member)).toBe(true);
    expect(removesLastAdmin(1, ROLE.admin, null)).toBe(true);
    expect(removesLastAdmin(1, ROLE.admin, ROLE.admin)).toBe(false);
    expect(removesLastAdmin(2, ROLE.admin, null)).toBe(false);
    expect(removesLastAdmin(1, ROLE.member, null)).toBe(false);
  });
});

describe("settings values", () => {
  it("knows time zones", () => {
    expect(isValidTimezone("UTC")).toBe(true);
    expect(isValidTimezone("Europe/Istanbul")).toBe(true);
    expect(isValidTimezone("Mars/Olympus")).toBe(false);
    expect(isValidTimezone("")).toBe(false);
  });

  it("accepts presets, assets and http(s) covers only", () => {
    expect(isAcceptableCoverImage(PROJECT_COVERS[0])).toBe(true);
    expect(isAcceptableCoverImage("/api/assets/v2/workspaces/acme/abc/")).toBe(true);
    expect(isAcceptableCoverImage("https://example.com/cover.png")).toBe(true);
    expect(isAcceptableCoverImage("javascript:alert(1)")).toBe(false);
    expect(isAcceptableCoverImage("data:image/png;base64,AAAA")).toBe(false);
    expect(isAcceptableCoverImage("https://example.com/a.png) ; background:red")).toBe(false);
    expect(isAcceptableCoverImage("linear-gradient(0deg,red,blue)")).toBe(false);
  });

  it("puts new projects first", () => {
    expect(sortOrderAtTop(null)).toBe(65535);
    expect(sortOrderAtTop(65535)).toBe(55535);
  });
});
