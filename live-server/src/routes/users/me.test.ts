import { LANGUAGES, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  reloadUser,
  setupInstance,
  type TestApp,
} from "../../../test/harness.ts";
import { projectMembers, sessions, userProfiles, workspaceInvitations } from "../../db/schema.ts";
import { createProject, membershipOf } from "../workspaces/test-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function profileOf(userId: string) {
  const [row] = await t.db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  if (!row) throw new Error("no profile");
  return row;
}

const anonymousCalls: [string, string, Record<string, unknown>?][] = [
  ["GET", "/api/users/me/"],
  ["PATCH", "/api/users/me/", { first_name: "X" }],
  ["DELETE", "/api/users/me/"],
  ["GET", "/api/users/me/profile/"],
  ["PATCH", "/api/users/me/profile/", { language: "fr" }],
  ["GET", "/api/users/me/accounts/"],
  ["GET", "/api/users/me/instance-admin/"],
  ["GET", "/api/users/me/settings/"],
  ["GET", "/api/users/me/notification-preferences/"],
  ["PATCH", "/api/users/me/notification-preferences/", { comment: false }],
  ["PATCH", "/api/users/me/onboard/", { is_onboarded: true }],
  ["PATCH", "/api/users/me/tour-completed/", { is_tour_completed: true }],
];

describe("anonymous callers", () => {
  it.each(anonymousCalls)("%s %s → 401", async (method, url, body) => {
    const res = await t.app.inject({
      method: method as "GET",
      url,
      payload: body,
      headers: { origin: "http://localhost:3000" },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("GET and PATCH /api/users/me/", () => {
  it("returns me, never the password hash", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).get("/api/users/me/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, is_active: true });
    expect(JSON.stringify(res.json())).not.toContain("scrypt");
  });

  it("updates names and images", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).patch("/api/users/me/", {
      first_name: " Grace ",
      last_name: "Hopper",
      display_name: "grace",
      avatar_url: "/api/assets/v2/avatar/1/",
      cover_image_url: "https://images.example.com/cover.png",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      display_name: "grace",
      avatar_url: "/api/assets/v2/avatar/1/",
      cover_image_url: "https://images.example.com/cover.png",
    });
    const cleared = await client(t.app, user).patch("/api/users/me/", { avatar_url: null });
    expect(cleared.json().avatar_url).toBeNull();
  });

  it("refuses bad input (400) and changes nothing", async () => {
    const user = await createUser(t.db);
    for (const body of [
      { first_name: "" },
      { display_name: "   " },
      { avatar_url: "javascript:alert(1)" },
      { cover_image_url: "//evil.example/x.png" },
      { first_name: 5 },
      { first_name: "x".repeat(256) },
    ]) {
      expect((await client(t.app, user).patch("/api/users/me/", body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    // Keys this route does not change (e-mail, active flag) are ignored like any unknown key.
    for (const body of [{ email: "new@example.com" }, { is_active: false }]) {
      expect((await client(t.app, user).patch("/api/users/me/", body)).statusCode, JSON.stringify(body)).toBe(200);
    }
    const after = await reloadUser(t.db, user.id);
    expect(after).toMatchObject({
      firstName: user.firstName,
      displayName: user.displayName,
      email: user.email,
      avatarUrl: null,
      coverImageUrl: null,
      isActive: true,
    });
  });
});

describe("DELETE /api/users/me/", () => {
  it("deactivates me, signs me out everywhere and takes me out of workspaces and projects", async () => {
    const owner = await createUser(t.db);
    const user = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user, role: ROLE.member }]);
    const project = await createProject(t.db, ws.id, [{ userId: user.id, role: ROLE.member }]);
    // My own workspace where I am alone: deactivating is allowed.
    const mine = await createWorkspace(t.db, user);
    const res = await client(t.app, user).delete("/api/users/me/");
    expect(res.statusCode).toBe(204);
    expect((await reloadUser(t.db, user.id))?.isActive).toBe(false);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await membershipOf(t.db, ws.id, user.id))?.isActive).toBe(false);
    expect((await membershipOf(t.db, mine.id, user.id))?.isActive).toBe(false);
    const [pm] = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(pm?.isActive).toBe(false);
    expect((await client(t.app, user).get("/api/users/me/")).statusCode).toBe(401);
  });

  it("is refused (400) while I am the only admin of a workspace others use, changing nothing", async () => {
    const admin = await createUser(t.db);
    const member = await createUser(t.db);
    const ws = await createWorkspace(t.db, admin, [{ user: member, role: ROLE.member }], { name: "Busy Place" });
    const res = await client(t.app, admin).delete("/api/users/me/");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('"Busy Place"');
    expect(res.json().error).toMatch(/Make another member admin/);
    expect((await reloadUser(t.db, admin.id))?.isActive).toBe(true);
    expect((await membershipOf(t.db, ws.id, admin.id))?.isActive).toBe(true);
    expect((await client(t.app, admin).get("/api/users/me/")).statusCode).toBe(200);
  });

  it("is refused (400) for the instance's only administrator", async () => {
    const admin = await setupInstance(t.db);
    const res = await client(t.app, admin).delete("/api/users/me/");
    expect(res.statusCode).toBe(400);
    expect((await reloadUser(t.db, admin.id))?.isActive).toBe(true);
  });
});

describe("/api/users/me/profile/", () => {
  it("returns the profile with its defaults", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).get("/api/users/me/profile/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: user.id,
      language: "en",
      is_onboarded: true,
      is_tour_completed: false,
      last_workspace_id: null,
      onboarding_step: { workspace_join: false, profile_complete: false },
    });
  });

  it("updates the fields of product-domain §3, merging theme and onboarding steps", async () => {
    const user = await createUser(t.db);
    const ws = await createWorkspace(t.db, user);
    const c = client(t.app, user);
    expect((await c.patch("/api/users/me/profile/", { theme: { theme: "dark", darkPalette: true } })).statusCode).toBe(
      200,
    );
    const res = await c.patch("/api/users/me/profile/", {
      theme: { primary: "#3F76FF" },
      onboarding_step: { profile_complete: true },
      use_case: "Engineering",
      language: "pt-BR",
      role: "Engineer",
      last_workspace_id: ws.id,
      billing_address_country: "FR",
      billing_address: "1 rue de la Paix, Paris",
      has_billing_address: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      theme: { theme: "dark", darkPalette: true, primary: "#3F76FF" },
      onboarding_step: { profile_complete: true, workspace_join: false },
      use_case: "Engineering",
      language: "pt-BR",
      role: "Engineer",
      last_workspace_id: ws.id,
      billing_address_country: "FR",
      has_billing_address: true,
    });
    for (const language of LANGUAGES) {
      expect((await c.patch("/api/users/me/profile/", { language })).statusCode).toBe(200);
    }
  });

  it("refuses bad input and a workspace I am not in (400), changing nothing", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const foreign = await createWorkspace(t.db, other);
    const before = await profileOf(user.id);
    for (const body of [
      { language: "klingon" },
      { language: "EN" },
      { last_workspace_id: foreign.id },
      { last_workspace_id: "not-a-uuid" },
      { theme: { theme: 5 } },
      { onboarding_step: { workspace_join: "yes" } },
      { role: 5 },
      { has_billing_address: "no" },
    ]) {
      expect((await client(t.app, user).patch("/api/users/me/profile/", body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
    const after = await profileOf(user.id);
    expect(after).toEqual(before);
  });
});

describe("accounts, instance-admin and settings", () => {
  it("lists no linked accounts", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).get("/api/users/me/accounts/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("says whether I am the instance administrator", async () => {
    const user = await createUser(t.db);
    expect((await client(t.app, user).get("/api/users/me/instance-admin/")).json()).toEqual({
      is_instance_admin: false,
    });
    const admin = await createUser(t.db);
    await setupInstance(t.db, admin);
    expect((await client(t.app, admin).get("/api/users/me/instance-admin/")).json()).toEqual({
      is_instance_admin: true,
    });
  });

  it("gives my last and fallback workspaces and my pending invitation count", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const first = await createWorkspace(t.db, user);
    const second = await createWorkspace(t.db, other, [{ user, role: ROLE.member }]);
    const third = await createWorkspace(t.db, other);
    await t.db.update(userProfiles).set({ lastWorkspaceId: second.id }).where(eq(userProfiles.userId, user.id));
    await t.db.insert(workspaceInvitations).values({ workspaceId: third.id, email: user.email, tokenHash: "x" });
    const res = await client(t.app, user).get("/api/users/me/settings/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      email: user.email,
      workspace: {
        last_workspace_id: second.id,
        last_workspace_slug: second.slug,
        fallback_workspace_id: first.id,
        fallback_workspace_slug: first.slug,
        invites: 1,
      },
    });
    // A last workspace I was removed from is not offered.
    await t.db.update(userProfiles).set({ lastWorkspaceId: third.id }).where(eq(userProfiles.userId, user.id));
    expect((await client(t.app, user).get("/api/users/me/settings/")).json().workspace.last_workspace_id).toBeNull();
  });
});

describe("/api/users/me/notification-preferences/", () => {
  it("reads and updates the five switches", async () => {
    const user = await createUser(t.db);
    const c = client(t.app, user);
    expect((await c.get("/api/users/me/notification-preferences/")).json()).toEqual({
      property_change: true,
      state_change: true,
      comment: true,
      mention: true,
      issue_completed: true,
    });
    const res = await c.patch("/api/users/me/notification-preferences/", { comment: false, mention: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ comment: false, mention: false, state_change: true });
    expect((await c.get("/api/users/me/notification-preferences/")).json().comment).toBe(false);
  });

  it("refuses bad input (400), changing nothing", async () => {
    const user = await createUser(t.db);
    for (const body of [{ comment: "no" }, { mention: null }]) {
      expect((await client(t.app, user).patch("/api/users/me/notification-preferences/", body)).statusCode).toBe(400);
    }
    expect((await profileOf(user.id)).notificationPreferences.comment).toBe(true);
  });
});

describe("onboarding and tour", () => {
  it("finishing onboarding sets every step, lands on the first workspace and marks me onboarded", async () => {
    const user = await createUser(t.db, { onboarded: false });
    const other = await createUser(t.db);
    const first = await createWorkspace(t.db, other, [{ user, role: ROLE.member }]);
    const second = await createWorkspace(t.db, user);
    await t.db.update(userProfiles).set({ lastWorkspaceId: second.id }).where(eq(userProfiles.userId, user.id));
    const res = await client(t.app, user).patch("/api/users/me/onboard/", { is_onboarded: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      is_onboarded: true,
      last_workspace_id: first.id,
      onboarding_step: { workspace_join: true, profile_complete: true, workspace_create: true, workspace_invite: true },
    });
  });

  it("refuses anything but is_onboarded: true (400), changing nothing", async () => {
    const user = await createUser(t.db, { onboarded: false });
    for (const body of [{ is_onboarded: false }, {}, { is_onboarded: "true" }]) {
      expect((await client(t.app, user).patch("/api/users/me/onboard/", body)).statusCode).toBe(400);
    }
    const profile = await profileOf(user.id);
    expect(profile.isOnboarded).toBe(false);
    expect(profile.onboardingStep.workspace_join).toBe(false);
  });

  it("marks the tour completed, and refuses anything else (400)", async () => {
    const user = await createUser(t.db);
    expect(
      (await client(t.app, user).patch("/api/users/me/tour-completed/", { is_tour_completed: false })).statusCode,
    ).toBe(400);
    expect((await profileOf(user.id)).isTourCompleted).toBe(false);
    const res = await client(t.app, user).patch("/api/users/me/tour-completed/", { is_tour_completed: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().is_tour_completed).toBe(true);
  });
});
