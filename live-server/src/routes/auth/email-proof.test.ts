/**
 * Proof of an e-mail address (issue 9, items 2 and 3): a password sign-up cannot take over an
 * invitation addressed to someone else's address, invite-only instances stay invite-only, the
 * invitation link (its secret token) proves the address and shows the invitation to people who
 * have no account yet, and a code sign-in clears a password an intruder set before the owner
 * ever signed in, ending the intruder's sessions. Mail goes through a real SMTP server.
 */
import { AUTH_ERROR, type DomainEvent, EMAIL_NOT_VERIFIED, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  postForm,
  reloadUser,
  sessionFrom,
  setupInstance,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { sessions, users, workspaceInvitations, workspaceMembers } from "../../db/schema.ts";
import { expectAuthError, expectRedirectError, startTestSmtp, type TestSmtp, withConfig } from "./test-support.ts";

let t: TestApp;
let smtp: TestSmtp;
let admin: TestUser;
const events: DomainEvent[] = [];
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp(
    { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) },
    { authRateLimits: { perIpPerMinute: 100_000, perEmailPerMinute: 100_000, perIpFailuresPerMinute: 100_000 } },
  );
  admin = await setupInstance(t.db);
  t.app.ctx.events.subscribe((event) => {
    events.push(event);
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let n = 0;
const freshEmail = () => `proof-${Date.now().toString(36)}-${n++}@example.com`;
const PASSWORD = "a-long-enough-password";

type Link = { url: string; id: string; token: string; slug: string };

/** How many mails `email` has received so far. */
function mailCount(email: string): number {
  return smtp.inbox.filter((m) => m.to.includes(email.toLowerCase())).length;
}

/**
 * The newest mail to `email` once more than `sentBefore` have arrived. Mail is a queued job that
 * may be claimed after the call that sent it answered (on PostgreSQL it can miss one kick), so
 * the worker is woken again while waiting.
 */
async function newMailTo(email: string, sentBefore: number) {
  return vi.waitFor(
    async () => {
      await t.app.ctx.jobs.kick();
      if (mailCount(email) <= sentBefore) throw new Error(`no new mail to ${email}`);
      return smtp.lastTo(email);
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** The owner invites `email` through the API; the link is read out of the delivered mail. */
async function inviteByMail(email: string, role: number = ROLE.admin) {
  const sentBefore = mailCount(email);
  const ws = await createWorkspace(t.db, admin);
  const res = await client(t.app, admin).post(`/api/workspaces/${ws.slug}/invitations/`, {
    emails: [{ email, role }],
  });
  expect(res.statusCode, res.body).toBe(201);
  // The inviter never sees the secret.
  expect(res.body).not.toMatch(/token/i);
  const mail = await newMailTo(email, sentBefore);
  const url = /https?:\/\/\S+workspace-invitations\/\S+/.exec(mail.text)?.[0];
  if (!url) throw new Error(`no link in: ${mail.text}`);
  const params = new URL(url).searchParams;
  const link: Link = {
    url,
    id: params.get("invitation_id") ?? "",
    token: params.get("token") ?? "",
    slug: params.get("slug") ?? "",
  };
  return { ws, link };
}

/** Read the six-digit code of the latest mail to `email`. */
async function latestCode(email: string): Promise<string> {
  await t.app.ctx.jobs.kick();
  const code = /\b(\d{6})\b/.exec(smtp.lastTo(email).text)?.[1];
  if (!code) throw new Error("no code in mail");
  return code;
}

/** A password sign-up through the real form; returns the session token. */
async function passwordSignUp(email: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await postForm(t.app, "/auth/sign-up/", { email, password: PASSWORD, ...extra });
  expect(res.headers.location, JSON.stringify(res.headers.location)).toBe("/");
  const token = sessionFrom(res);
  if (!token) throw new Error("no session");
  return token;
}

const membership = async (workspaceId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .then((rows) => rows.filter((r) => r.memberId === userId))
  )[0];

const expectNotVerified = (res: { statusCode: number; json: () => { code?: string; error?: string } }) => {
  expect(res.statusCode).toBe(403);
  expect(res.json().code).toBe(EMAIL_NOT_VERIFIED);
  expect(res.json().error).toMatch(/verify your e-mail/i);
};

describe("a password sign-up as an invited address (invitation takeover)", () => {
  it("cannot see, preview, accept or join the invitation until the address is proven", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.admin);
    const token = await passwordSignUp(email);
    const intruder = client(t.app, { token });

    expect((await intruder.get("/api/users/me/")).json().is_email_verified).toBe(false);
    expectNotVerified(await intruder.get("/api/users/me/workspaces/invitations/"));
    expect((await intruder.get("/api/users/me/settings/")).json().workspace.invites).toBe(0);
    expectNotVerified(await intruder.get(`/api/workspaces/${ws.slug}/invitations/${link.id}/`));
    expectNotVerified(await intruder.post("/api/users/me/workspaces/invitations/", { invitations: [link.id] }));
    expectNotVerified(
      await intruder.post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, { accepted: true }),
    );
    expectNotVerified(
      await intruder.post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, {
        accepted: true,
        token: "a-guessed-token",
      }),
    );
    // Declining someone else's invitation is answering it too.
    expectNotVerified(
      await intruder.post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, { accepted: false }),
    );

    const user = await t.db.select().from(users).where(eq(users.email, email));
    expect(await membership(ws.id, user[0]?.id ?? "")).toBeUndefined();
    const [invitation] = await t.db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, link.id));
    expect(invitation).toMatchObject({ accepted: false, respondedAt: null });
  });

  it("sees and accepts it after proving the address with the mailed code, keeping the password", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.member);
    const token = await passwordSignUp(email);
    const other = await passwordSignIn(email);
    const me = client(t.app, { token });

    expect((await client(t.app).post("/auth/verify-email/send/", {})).statusCode).toBe(401);
    const sent = await me.post("/auth/verify-email/send/", {});
    expect(sent.json()).toEqual({ sent: true, email, is_email_verified: false });
    const code = await latestCode(email);
    expect(smtp.lastTo(email).subject).toMatch(/verification code/);

    // A wrong code proves nothing.
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expectAuthError(await me.post("/auth/verify-email/", { code: wrong }), AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN);
    expectAuthError(await me.post("/auth/verify-email/", {}), AUTH_ERROR.MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED);
    expectNotVerified(await me.get("/api/users/me/workspaces/invitations/"));

    const verified = await me.post("/auth/verify-email/", { code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ email, is_email_verified: true, is_password_autoset: false });

    const list = await me.get("/api/users/me/workspaces/invitations/");
    expect(list.json().map((i: { id: string }) => i.id)).toEqual([link.id]);
    expect((await me.get("/api/users/me/settings/")).json().workspace.invites).toBe(1);
    const joined = await me.post("/api/users/me/workspaces/invitations/", { invitations: [link.id] });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject([{ slug: ws.slug, role: ROLE.member }]);

    // The prover signed in with the password, so it stays; the other session ended.
    const row = await t.db.select().from(users).where(eq(users.email, email));
    expect(row[0]).toMatchObject({ isEmailVerified: true, isPasswordAutoset: false });
    expect((await client(t.app, { token: other }).get("/api/users/me/")).statusCode).toBe(401);
    const signIn = await postForm(t.app, "/auth/sign-in/", { email, password: PASSWORD });
    expect(signIn.headers.location).toBe("/");
  });

  it("accepts through the mailed link: its token proves the address (and a wrong token does not)", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.member);
    const token = await passwordSignUp(email);
    const me = client(t.app, { token });
    const url = `/api/workspaces/${ws.slug}/invitations/${link.id}/join/`;
    expectNotVerified(await me.post(url, { accepted: true, token: `${link.token}x` }));
    const res = await me.post(url, { accepted: true, token: link.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: true, role: ROLE.member, workspace: { slug: ws.slug } });
    const [row] = await t.db.select().from(users).where(eq(users.email, email));
    expect(row?.isEmailVerified).toBe(true);
    expect(await membership(ws.id, row?.id ?? "")).toMatchObject({ role: ROLE.member, isActive: true });
  });
});

async function passwordSignIn(email: string): Promise<string> {
  const res = await postForm(t.app, "/auth/sign-in/", { email, password: PASSWORD });
  expect(res.headers.location).toBe("/");
  return sessionFrom(res) ?? "";
}

describe("sign-up switched off stays invite-only", () => {
  it("refuses a password sign-up of an invited address without its link, so no membership without proof", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.admin);
    await withConfig(t, { enable_signup: false }, async () => {
      expectRedirectError(
        await postForm(t.app, "/auth/sign-up/", { email, password: PASSWORD }),
        "/sign-up/",
        AUTH_ERROR.SIGNUP_DISABLED,
      );
      expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

      // With the code mailed to the address, the invitee gets in and can accept.
      expect((await client(t.app).post("/auth/magic-generate/", { email })).statusCode).toBe(200);
      const code = await latestCode(email);
      const res = await postForm(t.app, "/auth/magic-sign-up/", { email, code });
      expect(res.headers.location).toBe("/");
      const me = client(t.app, { token: sessionFrom(res) ?? "" });
      expect((await me.get("/api/users/me/")).json().is_email_verified).toBe(true);
      expect(
        (await me.post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, { accepted: true })).statusCode,
      ).toBe(200);
    });
  });

  it("lets the invitation link stand for the proof of a password sign-up", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.member);
    await withConfig(t, { enable_signup: false }, async () => {
      const token = await passwordSignUp(email, { invitation_id: link.id, invitation_token: link.token });
      const me = client(t.app, { token });
      expect((await me.get("/api/users/me/")).json().is_email_verified).toBe(true);
      const res = await me.post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, { accepted: true });
      expect(res.statusCode).toBe(200);
    });
  });
});

describe("account pre-hijack", () => {
  it("a code sign-in by the owner clears the intruder's password and ends the intruder's sessions", async () => {
    const email = freshEmail();
    // The intruder registers the owner's address with a password and keeps two sessions.
    const first = await passwordSignUp(email);
    const second = await passwordSignIn(email);
    const [before] = await t.db.select().from(users).where(eq(users.email, email));
    if (!before) throw new Error("no user");
    expect(before.isEmailVerified).toBe(false);
    const eventsBefore = events.length;

    // The owner signs in with a code mailed to their address.
    expect((await client(t.app).post("/auth/magic-generate/", { email })).statusCode).toBe(200);
    const code = await latestCode(email);
    const res = await postForm(t.app, "/auth/magic-sign-in/", { email, code });
    expect(res.headers.location).toBe("/");
    const owner = sessionFrom(res) ?? "";

    const after = await reloadUser(t.db, before.id);
    expect(after).toMatchObject({ isEmailVerified: true, isPasswordAutoset: true, passwordHash: null });
    for (const token of [first, second]) {
      expect((await client(t.app, { token }).get("/api/users/me/")).statusCode).toBe(401);
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, before.id))).toHaveLength(1);
    expect((await client(t.app, { token: owner }).get("/api/users/me/")).statusCode).toBe(200);
    // The intruder's password no longer works.
    expectRedirectError(
      await postForm(t.app, "/auth/sign-in/", { email, password: PASSWORD }),
      "/",
      AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
    );
    // Ended through auth/sessions.ts: open live connections hear of it.
    const revoked = events.slice(eventsBefore).filter((e) => e.type === "session.revoked");
    const endedIds = revoked.flatMap((e) => (e.data as { session_ids: string[] }).session_ids);
    expect(endedIds.length).toBeGreaterThanOrEqual(2);
    // The owner can choose their own password now.
    const set = await client(t.app, { token: owner }).post("/auth/set-password/", { password: "owners-own-password" });
    expect(set.statusCode, set.body).toBe(200);
  });

  it("leaves a proven account's password and sessions alone on a code sign-in", async () => {
    const user = await createUser(t.db);
    expect((await client(t.app).post("/auth/magic-generate/", { email: user.email })).statusCode).toBe(200);
    const code = await latestCode(user.email);
    const res = await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code });
    expect(res.headers.location).toBe("/");
    expect((await reloadUser(t.db, user.id))?.passwordHash).toBe(user.passwordHash);
    expect((await client(t.app, user).get("/api/users/me/")).statusCode).toBe(200);
  });
});

describe("the invitation link's landing (GET …/invitations/{id}/join/?token=)", () => {
  it("shows the workspace, inviter and role to the link's holder without a session", async () => {
    const email = freshEmail();
    const { ws, link } = await inviteByMail(email, ROLE.member);
    expect(link.token.length).toBeGreaterThanOrEqual(40);
    const url = `/api/workspaces/${ws.slug}/invitations/${link.id}/join/`;
    const res = await client(t.app).get(`${url}?token=${encodeURIComponent(link.token)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: link.id,
      email,
      role: ROLE.member,
      workspace: { name: ws.name, slug: ws.slug },
      invited_by: { first_name: admin.firstName, display_name: admin.displayName },
      existing_user: false,
    });
    expect(res.body).not.toContain(link.token);

    // A wrong token says nothing, nor does another slug or a bad id (by id alone: the minimal
    // preview, workspaces/invitations.test.ts).
    for (const wrong of [
      `${url}?token=${encodeURIComponent(`${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`)}`,
      `/api/workspaces/${(await createWorkspace(t.db, admin)).slug}/invitations/${link.id}/join/?token=${link.token}`,
      `/api/workspaces/${ws.slug}/invitations/not-a-uuid/join/?token=${link.token}`,
    ]) {
      const refused = await client(t.app).get(wrong);
      expect(refused.statusCode, wrong).toBe(404);
      expect(refused.body).not.toContain(ws.name);
    }
  });

  it("says when the address already has an account, and stops working once the invitation is re-sent or answered", async () => {
    const user = await createUser(t.db);
    const { ws, link } = await inviteByMail(user.email, ROLE.member);
    const url = `/api/workspaces/${ws.slug}/invitations/${link.id}/join/?token=${link.token}`;
    expect((await client(t.app).get(url)).json().existing_user).toBe(true);
    // Sent again: a new link, the old one is dead.
    const sentBefore = mailCount(user.email);
    await client(t.app, admin).post(`/api/workspaces/${ws.slug}/invitations/`, {
      emails: [{ email: user.email, role: ROLE.member }],
    });
    const resent = await newMailTo(user.email, sentBefore);
    const fresh = new URL(/https?:\/\/\S+workspace-invitations\/\S+/.exec(resent.text)?.[0] ?? "");
    const newToken = fresh.searchParams.get("token") ?? "";
    expect(newToken).not.toBe(link.token);
    expect((await client(t.app).get(url)).statusCode).toBe(404);
    const newUrl = `/api/workspaces/${ws.slug}/invitations/${link.id}/join/?token=${newToken}`;
    expect((await client(t.app).get(newUrl)).statusCode).toBe(200);
    // Answered: the landing is gone.
    const joined = await client(t.app, user).post(`/api/workspaces/${ws.slug}/invitations/${link.id}/join/`, {
      accepted: true,
    });
    expect(joined.statusCode).toBe(200);
    expect((await client(t.app).get(newUrl)).statusCode).toBe(404);
  });
});
