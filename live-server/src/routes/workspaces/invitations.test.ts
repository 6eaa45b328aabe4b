import { ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  ORIGIN,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { workspaceInvitations, workspaceMembers, workspaces } from "../../db/schema.ts";
import { countInvitations, countMembers, membershipOf } from "./test-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

async function invitationRow(id: string) {
  const [row] = await t.db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, id));
  return row;
}

/** A workspace with an admin, a member and a guest. */
async function team() {
  const admin = await createUser(t.db, { firstName: "Ada", lastName: "Admin" });
  const member = await createUser(t.db);
  const guest = await createUser(t.db);
  const outsider = await createUser(t.db);
  const ws = await createWorkspace(t.db, admin, [
    { user: member, role: ROLE.member },
    { user: guest, role: ROLE.guest },
  ]);
  await createWorkspace(t.db, outsider);
  return { admin, member, guest, outsider, ws, base: `/api/workspaces/${ws.slug}/invitations/` };
}

async function invite(by: TestUser, slug: string, email: string, role: number = ROLE.member) {
  const res = await client(t.app, by).post(`/api/workspaces/${slug}/invitations/`, { emails: [{ email, role }] });
  expect(res.statusCode).toBe(201);
  return res.json().invitations[0] as { id: string; email: string; role: number };
}

describe("POST /api/workspaces/:slug/invitations/", () => {
  it("invites, mails each invitee a link, skips members with a note and updates a re-invited row", async () => {
    const { admin, member, ws, base } = await team();
    const send = vi.spyOn(t.app.ctx.mailer, "send");
    const res = await client(t.app, admin).post(base, {
      emails: [
        { email: "New.Person@Example.com", role: ROLE.guest },
        { email: member.email, role: ROLE.member },
        { email: "second@example.com", role: ROLE.admin },
      ],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.invitations).toHaveLength(2);
    expect(body.invitations[0]).toMatchObject({ email: "new.person@example.com", role: ROLE.guest, accepted: false });
    expect(body.invitations[0].invited_by).toMatchObject({ id: admin.id, first_name: "Ada" });
    expect(body.skipped).toEqual([{ email: member.email, reason: "Already a member of this workspace." }]);
    expect(body.message).toMatch(/skipped/);
    expect(send).toHaveBeenCalledTimes(2);
    const first = body.invitations[0];
    const mail = send.mock.calls[0]?.[0];
    expect(mail?.to).toBe("new.person@example.com");
    expect(mail?.subject).toContain(ws.name);
    const link = `${ORIGIN}/workspace-invitations/?invitation_id=${first.id}&email=new.person%40example.com&slug=${ws.slug}`;
    expect(mail?.text).toContain(link);

    // Re-inviting the same address updates the one row.
    const again = await client(t.app, admin).post(base, { emails: [{ email: "new.person@example.com", role: 15 }] });
    expect(again.statusCode).toBe(201);
    expect(again.json().invitations[0].id).toBe(first.id);
    expect((await invitationRow(first.id))?.role).toBe(ROLE.member);
    expect(await countInvitations(t.db, ws.id)).toBe(2);
  });

  it("lets a member invite members and guests but not admins (403, nothing stored)", async () => {
    const { member, ws, base } = await team();
    const ok = await client(t.app, member).post(base, { emails: [{ email: "m1@example.com", role: ROLE.member }] });
    expect(ok.statusCode).toBe(201);
    const tooHigh = await client(t.app, member).post(base, {
      emails: [
        { email: "m2@example.com", role: ROLE.member },
        { email: "boss@example.com", role: ROLE.admin },
      ],
    });
    expect(tooHigh.statusCode).toBe(403);
    expect(await countInvitations(t.db, ws.id)).toBe(1);
  });

  it("refuses guests (403), outsiders (404) and anonymous callers (401)", async () => {
    const { guest, outsider, ws, base } = await team();
    const body = { emails: [{ email: "x@example.com", role: ROLE.guest }] };
    expect((await client(t.app, guest).post(base, body)).statusCode).toBe(403);
    expect((await client(t.app, outsider).post(base, body)).statusCode).toBe(404);
    expect((await client(t.app).post(base, body)).statusCode).toBe(401);
    expect(await countInvitations(t.db, ws.id)).toBe(0);
  });

  it("refuses bad input (400), storing and mailing nothing", async () => {
    const { admin, ws, base } = await team();
    const send = vi.spyOn(t.app.ctx.mailer, "send");
    for (const body of [
      { emails: [] },
      { emails: [{ email: "not-an-email", role: ROLE.member }] },
      { emails: [{ email: "ok@example.com", role: 7 }] },
      { emails: [{ email: "ok@example.com", role: String(ROLE.member) }] },
      { emails: "ok@example.com" },
      {},
    ]) {
      expect((await client(t.app, admin).post(base, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countInvitations(t.db, ws.id)).toBe(0);
    expect(send).not.toHaveBeenCalled();
  });
});

describe("GET /api/workspaces/:slug/invitations/", () => {
  it("lists pending invitations to members and admins, not accepted ones", async () => {
    const { admin, member, base, ws } = await team();
    const pending = await invite(admin, ws.slug, "pending@example.com");
    const joiner = await createUser(t.db);
    const accepted = await invite(admin, ws.slug, joiner.email);
    expect((await client(t.app, joiner).post(`${base}${accepted.id}/join/`, { accepted: true })).statusCode).toBe(200);
    const res = await client(t.app, member).get(base);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((i: { id: string }) => i.id)).toEqual([pending.id]);
  });

  it("refuses guests (403), outsiders (404) and anonymous callers (401)", async () => {
    const { guest, outsider, base } = await team();
    expect((await client(t.app, guest).get(base)).statusCode).toBe(403);
    expect((await client(t.app, outsider).get(base)).statusCode).toBe(404);
    expect((await client(t.app).get(base)).statusCode).toBe(401);
  });
});

describe("GET /api/workspaces/:slug/invitations/:id/", () => {
  it("shows the invitation to its manager and a preview to the invitee", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const inv = await invite(admin, ws.slug, invitee.email, ROLE.guest);
    const asAdmin = await client(t.app, admin).get(`${base}${inv.id}/`);
    expect(asAdmin.statusCode).toBe(200);
    const preview = await client(t.app, invitee).get(`${base}${inv.id}/`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      id: inv.id,
      role: ROLE.guest,
      workspace: { id: ws.id, name: ws.name, slug: ws.slug },
      invited_by: { id: admin.id, first_name: "Ada" },
    });
  });

  it("is 404 for another user and across workspaces, 403 for a guest, 401 anonymous", async () => {
    const { admin, guest, outsider, ws, base } = await team();
    const inv = await invite(admin, ws.slug, "someone@example.com");
    expect((await client(t.app, outsider).get(`${base}${inv.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, guest).get(`${base}${inv.id}/`)).statusCode).toBe(403);
    expect((await client(t.app).get(`${base}${inv.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, admin).get(`${base}not-a-uuid/`)).statusCode).toBe(404);
    // The id of another workspace's invitation, asked through a workspace I administer.
    const other = await team();
    const foreign = await invite(other.admin, other.ws.slug, "foreign@example.com");
    expect((await client(t.app, admin).get(`${base}${foreign.id}/`)).statusCode).toBe(404);
  });
});

describe("PATCH and DELETE /api/workspaces/:slug/invitations/:id/", () => {
  it("lets an admin change the role and revoke", async () => {
    const { admin, ws, base } = await team();
    const inv = await invite(admin, ws.slug, "role@example.com", ROLE.guest);
    const res = await client(t.app, admin).patch(`${base}${inv.id}/`, { role: ROLE.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toBe(ROLE.admin);
    expect((await client(t.app, admin).delete(`${base}${inv.id}/`)).statusCode).toBe(204);
    expect(await invitationRow(inv.id)).toBeUndefined();
  });

  it("lets a member manage member and guest invitations only, never above their role", async () => {
    const { admin, member, ws, base } = await team();
    const guestInv = await invite(admin, ws.slug, "g@example.com", ROLE.guest);
    const adminInv = await invite(admin, ws.slug, "a@example.com", ROLE.admin);
    expect((await client(t.app, member).patch(`${base}${guestInv.id}/`, { role: ROLE.member })).statusCode).toBe(200);
    expect((await client(t.app, member).patch(`${base}${guestInv.id}/`, { role: ROLE.admin })).statusCode).toBe(403);
    expect((await client(t.app, member).patch(`${base}${adminInv.id}/`, { role: ROLE.guest })).statusCode).toBe(403);
    expect((await client(t.app, member).delete(`${base}${adminInv.id}/`)).statusCode).toBe(403);
    expect((await invitationRow(guestInv.id))?.role).toBe(ROLE.member);
    expect((await invitationRow(adminInv.id))?.role).toBe(ROLE.admin);
    expect((await client(t.app, member).delete(`${base}${guestInv.id}/`)).statusCode).toBe(204);
  });

  it("refuses guests (403), outsiders and other workspaces (404), anonymous (401) and bad roles (400)", async () => {
    const { admin, guest, outsider, ws, base } = await team();
    const inv = await invite(admin, ws.slug, "keep@example.com", ROLE.member);
    const url = `${base}${inv.id}/`;
    expect((await client(t.app, guest).patch(url, { role: ROLE.guest })).statusCode).toBe(403);
    expect((await client(t.app, guest).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, outsider).patch(url, { role: ROLE.guest })).statusCode).toBe(404);
    expect((await client(t.app, outsider).delete(url)).statusCode).toBe(404);
    expect((await client(t.app).patch(url, { role: ROLE.guest })).statusCode).toBe(401);
    expect((await client(t.app).delete(url)).statusCode).toBe(401);
    for (const body of [{ role: 10 }, { role: "admin" }, {}, { role: [ROLE.guest] }]) {
      expect((await client(t.app, admin).patch(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const other = await team();
    expect((await client(t.app, other.admin).delete(`${other.base}${inv.id}/`)).statusCode).toBe(404);
    expect(await invitationRow(inv.id)).toMatchObject({ role: ROLE.member, email: "keep@example.com" });
  });
});

describe("POST /api/workspaces/:slug/invitations/:id/join/", () => {
  it("lets the invited user join with the invited role", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const inv = await invite(admin, ws.slug, invitee.email.toUpperCase(), ROLE.guest);
    const res = await client(t.app, invitee).post(`${base}${inv.id}/join/`, { accepted: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: true, role: ROLE.guest, workspace: { id: ws.id, slug: ws.slug } });
    expect(await membershipOf(t.db, ws.id, invitee.id)).toMatchObject({ role: ROLE.guest, isActive: true });
    const row = await invitationRow(inv.id);
    expect(row?.accepted).toBe(true);
    expect(row?.respondedAt).toBeInstanceOf(Date);
    expect((await client(t.app, invitee).get(`/api/workspaces/${ws.slug}/`)).json().role).toBe(ROLE.guest);
    // Answering twice is refused.
    const again = await client(t.app, invitee).post(`${base}${inv.id}/join/`, { accepted: true });
    expect(again.statusCode).toBe(400);
  });

  it("refuses another e-mail address (403) without changing anything", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const intruder = await createUser(t.db);
    const inv = await invite(admin, ws.slug, invitee.email, ROLE.member);
    const res = await client(t.app, intruder).post(`${base}${inv.id}/join/`, { accepted: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("This invitation was sent to another e-mail address.");
    expect(await membershipOf(t.db, ws.id, intruder.id)).toBeUndefined();
    expect(await invitationRow(inv.id)).toMatchObject({ accepted: false, respondedAt: null });
    // Declining someone else's invitation is refused too.
    expect((await client(t.app, intruder).post(`${base}${inv.id}/join/`, { accepted: false })).statusCode).toBe(403);
    expect(await invitationRow(inv.id)).toBeDefined();
  });

  it("deletes the invitation when declined", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const inv = await invite(admin, ws.slug, invitee.email);
    expect((await client(t.app, invitee).post(`${base}${inv.id}/join/`, { accepted: false })).statusCode).toBe(204);
    expect(await invitationRow(inv.id)).toBeUndefined();
    expect(await membershipOf(t.db, ws.id, invitee.id)).toBeUndefined();
  });

  it("reactivates an earlier, inactive membership with the invited role", async () => {
    const { admin, member, ws, base } = await team();
    await t.db.update(workspaceMembers).set({ isActive: false }).where(eq(workspaceMembers.memberId, member.id));
    const inv = await invite(admin, ws.slug, member.email, ROLE.guest);
    expect((await client(t.app, member).post(`${base}${inv.id}/join/`, { accepted: true })).statusCode).toBe(200);
    expect(await membershipOf(t.db, ws.id, member.id)).toMatchObject({ isActive: true, role: ROLE.guest });
    expect(await countMembers(t.db, ws.id)).toBe(3);
  });

  it("is 404 through another workspace's slug, 401 anonymous, 400 on a bad body (nothing changed)", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const inv = await invite(admin, ws.slug, invitee.email);
    const other = await team();
    expect((await client(t.app, invitee).post(`${other.base}${inv.id}/join/`, { accepted: true })).statusCode).toBe(
      404,
    );
    expect((await client(t.app, invitee).post(`${base}not-a-uuid/join/`, { accepted: true })).statusCode).toBe(404);
    expect((await client(t.app).post(`${base}${inv.id}/join/`, { accepted: true })).statusCode).toBe(401);
    for (const body of [{}, { accepted: "yes" }, { accepted: 1 }]) {
      expect((await client(t.app, invitee).post(`${base}${inv.id}/join/`, body)).statusCode).toBe(400);
    }
    expect(await membershipOf(t.db, ws.id, invitee.id)).toBeUndefined();
    expect(await invitationRow(inv.id)).toMatchObject({ accepted: false, role: ROLE.member });
  });
});

describe("GET /api/workspaces/:slug/invitations/:id/join/ (the mailed link's landing)", () => {
  /** Invite `email` from `admin` with a personal note; answers the invitation and the link's token. */
  async function inviteWithLink(admin: TestUser, slug: string, email: string) {
    const send = vi.spyOn(t.app.ctx.mailer, "send");
    const res = await client(t.app, admin).post(`/api/workspaces/${slug}/invitations/`, {
      emails: [{ email, role: ROLE.member }],
      message: "A private note for the invitee",
    });
    expect(res.statusCode).toBe(201);
    const text = send.mock.calls.at(-1)?.[0].text ?? "";
    const token = new URL(/https?:\/\/\S+workspace-invitations\/\S+/.exec(text)?.[0] ?? "").searchParams.get("token");
    send.mockRestore();
    return { invitation: res.json().invitations[0] as { id: string }, token: token ?? "" };
  }

  it("answers by id alone, signed out, with a minimal preview: the reference's page sends no token", async () => {
    const { admin, ws, base } = await team();
    const [withLogo] = await t.db
      .update(workspaces)
      .set({ logoUrl: "https://cdn.example.com/logo.png" })
      .where(eq(workspaces.id, ws.id))
      .returning();
    const { invitation, token } = await inviteWithLink(admin, ws.slug, "Preview.Person@Example.com");
    for (const url of [`${base}${invitation.id}/join/`, `${base}${invitation.id}/join/?token=`]) {
      const res = await client(t.app).get(url);
      expect(res.statusCode, url).toBe(200);
      // Exactly these fields: what the invitation screen shows and the reference's page reads.
      expect(res.json()).toEqual({
        id: invitation.id,
        email: "preview.person@example.com",
        role: ROLE.member,
        accepted: false,
        responded_at: null,
        created_at: expect.any(String),
        workspace: {
          id: ws.id,
          name: ws.name,
          slug: ws.slug,
          logo_url: "https://cdn.example.com/logo.png",
          logo_props: withLogo?.logoProps,
        },
        invited_by: { first_name: "Ada", last_name: "Admin", display_name: admin.displayName, avatar_url: null },
      });
      // Nothing else: no note, no token, no user ids, no inviter address, nothing about accounts.
      for (const secret of ["A private note", token, admin.id, admin.email, "existing_user", "created_by"]) {
        expect(res.body).not.toContain(secret);
      }
    }
    // With the link's token: the invitee's view, which also says whether the address has an account.
    const full = await client(t.app).get(`${base}${invitation.id}/join/?token=${encodeURIComponent(token)}`);
    expect(full.json()).toMatchObject({
      id: invitation.id,
      message: "A private note for the invitee",
      existing_user: false,
    });
  });

  it("is a plain 404 for an unknown or malformed id, another workspace's slug, a wrong token, or an answered invitation", async () => {
    const { admin, ws, base } = await team();
    const invitee = await createUser(t.db);
    const { invitation, token } = await inviteWithLink(admin, ws.slug, invitee.email);
    const other = await team();
    for (const url of [
      `${base}00000000-0000-4000-8000-000000000000/join/`,
      `${base}not-a-uuid/join/`,
      `${other.base}${invitation.id}/join/`,
      `${base}${invitation.id}/join/?token=${encodeURIComponent(`${token}x`)}`,
    ]) {
      const res = await client(t.app).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(ws.name);
      expect(res.body).not.toContain(invitee.email);
    }
    expect((await client(t.app, invitee).post(`${base}${invitation.id}/join/`, { accepted: true })).statusCode).toBe(
      200,
    );
    expect((await client(t.app).get(`${base}${invitation.id}/join/`)).statusCode).toBe(404);
  });

  it("does not stand in for the token: answering still needs the invited, proven address or the link's token", async () => {
    const { admin, ws, base } = await team();
    // A password sign-up on the invited address: not proven.
    const unproven = await createUser(t.db, { isEmailVerified: false });
    const { invitation, token } = await inviteWithLink(admin, ws.slug, unproven.email);
    const join = `${base}${invitation.id}/join/`;
    expect((await client(t.app).get(join)).statusCode).toBe(200);
    expect((await client(t.app).post(join, { accepted: true })).statusCode).toBe(401);
    expect((await client(t.app, admin).post(join, { accepted: true })).statusCode).toBe(403);
    for (const body of [{ accepted: true }, { accepted: true, token: `${token}x` }]) {
      const res = await client(t.app, unproven).post(join, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe("EMAIL_NOT_VERIFIED");
    }
    expect(await membershipOf(t.db, ws.id, unproven.id)).toBeUndefined();
    expect(await invitationRow(invitation.id)).toMatchObject({ accepted: false, respondedAt: null });
    expect((await client(t.app, unproven).post(join, { accepted: true, token })).statusCode).toBe(200);
    expect(await membershipOf(t.db, ws.id, unproven.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });
});
