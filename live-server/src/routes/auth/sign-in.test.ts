import { AUTH_ERROR } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  postForm,
  redirectQuery,
  reloadUser,
  sessionFrom,
  setupInstance,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { verifyPassword } from "../../auth/crypto.ts";
import { sessions, userProfiles, users, workspaceInvitations } from "../../db/schema.ts";
import { newInvitationToken } from "../workspaces/service.ts";
import { countUsers, expectAuthError, expectRedirectError, withConfig } from "./test-support.ts";

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({}, { authRateLimits: { perIpPerMinute: 100_000, perEmailPerMinute: 100_000 } });
  admin = await setupInstance(t.db);
});
afterAll(() => t.close());

const PASSWORD = "a-long-enough-password";
/** Mail configured in god-mode (nothing is sent by the e-mail check). */
const MAIL = { smtp_host: "smtp.example.invalid" };
type Status = "MAGIC_CODE" | "CREDENTIAL";
let n = 0;
const freshEmail = () => `new-${Date.now().toString(36)}-${n++}@example.com`;

async function sessionCount(userId: string): Promise<number> {
  return (await t.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

/** A pending invitation to `email`; returns what its mailed link carries (id and token). */
async function invite(email: string): Promise<{ invitation_id: string; invitation_token: string }> {
  const ws = await createWorkspace(t.db, admin);
  const { token, tokenHash } = newInvitationToken();
  const [row] = await t.db.insert(workspaceInvitations).values({ workspaceId: ws.id, email, tokenHash }).returning();
  if (!row) throw new Error("invitation insert failed");
  return { invitation_id: row.id, invitation_token: token };
}

describe("GET /auth/get-csrf-token/", () => {
  it("returns a token and sets the same value as the csrftoken cookie, stable across calls", async () => {
    const res = await client(t.app).get("/auth/get-csrf-token/");
    expect(res.statusCode).toBe(200);
    const token = res.json().csrf_token as string;
    expect(token.length).toBeGreaterThanOrEqual(32);
    const cookie = res.cookies.find((c) => c.name === "csrftoken");
    expect(cookie?.value).toBe(token);
    const again = await client(t.app, null, { cookie: `csrftoken=${token}` }).get("/auth/get-csrf-token/");
    expect(again.json().csrf_token).toBe(token);
  });
});

describe("POST /auth/email-check/", () => {
  const check = (body: unknown) => client(t.app).post("/auth/email-check/", body as Record<string, unknown>);

  it("refuses a missing, blank or malformed e-mail with 5010 / 5005", async () => {
    expectAuthError(await check({}), AUTH_ERROR.EMAIL_REQUIRED);
    expectAuthError(await check({ email: "   " }), AUTH_ERROR.EMAIL_REQUIRED);
    expectAuthError(await check({ email: "not-an-email" }), AUTH_ERROR.INVALID_EMAIL);
    expectAuthError(await check({ email: 42 }), AUTH_ERROR.INVALID_EMAIL);
  });

  it("sends a user with a chosen password to the password step, ignoring case and spaces", async () => {
    const user = await createUser(t.db);
    const res = await check({ email: `  ${user.email.toUpperCase()} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ existing: true, status: "CREDENTIAL" });
  });

  it("sends a user without a chosen password to the code step when mail is configured", async () => {
    const user = await createUser(t.db, { isPasswordAutoset: true, passwordHash: null });
    await withConfig(t, MAIL, async () => {
      expect((await check({ email: user.email })).json()).toEqual({ existing: true, status: "MAGIC_CODE" });
    });
  });

  it("sends a new address to the code step when mail is configured: it signs up by proving the address", async () => {
    await withConfig(t, MAIL, async () => {
      expect((await check({ email: freshEmail() })).json()).toEqual({ existing: false, status: "MAGIC_CODE" });
    });
    // Without mail, choosing a password is the way in.
    expect((await check({ email: freshEmail() })).json()).toEqual({ existing: false, status: "CREDENTIAL" });
  });

  it("answers as the reference product for every combination of mail, switches and account", async () => {
    const chosen = await createUser(t.db);
    const autoset = await createUser(t.db, { isPasswordAutoset: true, passwordHash: null });
    type Case = [mail: boolean, codes: boolean, passwords: boolean, newcomer: Status, chosen: Status, autoset: Status];
    const M = "MAGIC_CODE";
    const C = "CREDENTIAL";
    // The reference: a code for a new address and for an auto-set password when mail is configured
    // and code sign-in is on, else CREDENTIAL. Ours besides: where password sign-in is off, a
    // password cannot get anyone in, so the code step whenever code sign-in is on (* below).
    const cases: Case[] = [
      [true, true, true, M, C, M],
      [true, true, false, M, M /* * */, M],
      [true, false, true, C, C, C],
      [true, false, false, C, C, C],
      [false, true, true, C, C, C],
      [false, true, false, M /* * */, M /* * */, M /* * */],
      [false, false, true, C, C, C],
      [false, false, false, C, C, C],
    ];
    for (const [mail, codes, passwords, ...expected] of cases) {
      const patch = { ...(mail ? MAIL : {}), enable_magic_login: codes, enable_email_password: passwords };
      await withConfig(t, patch, async () => {
        const answers = [];
        for (const email of [freshEmail(), chosen.email, autoset.email])
          answers.push((await check({ email })).json().status);
        expect(answers, JSON.stringify({ mail, codes, passwords })).toEqual(expected);
      });
    }
  });

  it("refuses a deactivated account with 5019", async () => {
    const user = await createUser(t.db, { isActive: false });
    expectAuthError(await check({ email: user.email }), AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
  });

  it("refuses a new address with 5015 when sign-up is off, unless it has a pending invitation", async () => {
    const invited = freshEmail();
    const link = await invite(invited);
    await withConfig(t, { enable_signup: false }, async () => {
      expectAuthError(await check({ email: freshEmail() }), AUTH_ERROR.SIGNUP_DISABLED);
      // Invite-only: without the invitation link the address is proven with a code…
      expect((await check({ email: invited.toUpperCase() })).json()).toEqual({ existing: false, status: "MAGIC_CODE" });
      // …with it, a password sign-up may follow (the link proves the address).
      expect((await check({ email: invited, ...link })).json()).toEqual({ existing: false, status: "CREDENTIAL" });
      expect((await check({ email: invited, ...link, invitation_token: "not-the-token" })).json()).toEqual({
        existing: false,
        status: "MAGIC_CODE",
      });
      const user = await createUser(t.db);
      expect((await check({ email: user.email })).json().existing).toBe(true);
    });
    // With mail, a new address proves itself with a code, link or not (as the reference answers).
    await withConfig(t, { enable_signup: false, ...MAIL }, async () => {
      expect((await check({ email: invited, ...link })).json()).toEqual({ existing: false, status: "MAGIC_CODE" });
    });
  });

  it("refuses a cross-site call", async () => {
    const res = await client(t.app, null, { origin: "https://evil.example" }).post("/auth/email-check/", {
      email: admin.email,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("POST /auth/sign-up/", () => {
  it("creates the user and profile, signs them in and lands on /", async () => {
    const email = freshEmail();
    const res = await postForm(t.app, "/auth/sign-up/", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const token = sessionFrom(res);
    expect(token).toBeTruthy();

    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({
      email,
      isPasswordAutoset: false,
      isEmailVerified: false,
      displayName: email.split("@")[0],
      isActive: true,
    });
    expect(user?.lastLoginAt).toBeInstanceOf(Date);
    expect(await verifyPassword(PASSWORD, user?.passwordHash ?? null)).toBe(true);
    expect(user?.passwordHash?.startsWith("scrypt$")).toBe(true);
    expect(
      await t.db
        .select()
        .from(userProfiles)
        .where(eq(userProfiles.userId, user?.id ?? "")),
    ).toHaveLength(1);

    // The cookie is a working session: public API answers, and a guarded one knows the user (403, not 401).
    const signedIn = client(t.app, { token: token as string });
    expect((await signedIn.get("/api/instances/")).statusCode).toBe(200);
    expect((await signedIn.get("/api/instances/configurations/")).statusCode).toBe(403);
  });

  it("goes to a same-origin next_path", async () => {
    const res = await postForm(t.app, "/auth/sign-up/", {
      email: freshEmail(),
      password: PASSWORD,
      next_path: "/acme/projects/?tab=open",
    });
    expect(res.headers.location).toBe("/acme/projects/?tab=open");
  });

  it("names each refusal, sends it back to /sign-up/ with the e-mail and next_path, and stores nothing", async () => {
    const existing = await createUser(t.db);
    const before = await countUsers(t);
    const email = freshEmail();
    const cases: [Record<string, string>, number][] = [
      [{ email: "", password: PASSWORD }, AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_UP],
      [{ email, password: "" }, AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_UP],
      [{ email: "nope@nowhere", password: PASSWORD }, AUTH_ERROR.INVALID_EMAIL_SIGN_UP],
      [{ email, password: "short" }, AUTH_ERROR.INVALID_PASSWORD],
      [{ email: existing.email.toUpperCase(), password: PASSWORD }, AUTH_ERROR.USER_ALREADY_EXIST],
      [{ email, password: PASSWORD, csrfmiddlewaretoken: "forged-token-forged-token-forged" }, 5035],
    ];
    for (const [form, code] of cases) {
      const res = await postForm(t.app, "/auth/sign-up/", { ...form, next_path: "/acme/" });
      const query = expectRedirectError(res, "/sign-up/", code as typeof AUTH_ERROR.USER_ALREADY_EXIST);
      expect(query.next_path).toBe("/acme/");
      if (form.email) expect(query.email).toBe(form.email.toLowerCase());
    }
    // A form without the CSRF cookie at all.
    const noCookie = await t.app.inject({
      method: "POST",
      url: "/auth/sign-up/",
      headers: { origin: "http://localhost:3000", "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ email, password: PASSWORD, csrfmiddlewaretoken: "x".repeat(32) }).toString(),
    });
    expectRedirectError(noCookie, "/sign-up/", AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_UP);
    expect(await countUsers(t)).toBe(before);
  });

  it("refuses with 5018 when password sign-in is off", async () => {
    const before = await countUsers(t);
    await withConfig(t, { enable_email_password: false }, async () => {
      const res = await postForm(t.app, "/auth/sign-up/", { email: freshEmail(), password: PASSWORD });
      expectRedirectError(res, "/sign-up/", AUTH_ERROR.PASSWORD_LOGIN_DISABLED);
    });
    expect(await countUsers(t)).toBe(before);
  });

  it("refuses with 5015 when sign-up is off, but lets an invited address in with its invitation link", async () => {
    const invited = freshEmail();
    const link = await invite(invited);
    const other = freshEmail();
    const otherLink = await invite(other);
    await withConfig(t, { enable_signup: false }, async () => {
      const before = await countUsers(t);
      const res = await postForm(t.app, "/auth/sign-up/", { email: freshEmail(), password: PASSWORD });
      expectRedirectError(res, "/sign-up/", AUTH_ERROR.SIGNUP_DISABLED);
      // Knowing an invited address is not enough: a password proves nothing about it.
      const proofs: Record<string, string>[] = [
        {},
        { ...link, invitation_token: "guessed-token" },
        { invitation_id: link.invitation_id },
        otherLink, // another invitation's link, for another address
      ];
      for (const proof of proofs) {
        expectRedirectError(
          await postForm(t.app, "/auth/sign-up/", { email: invited, password: PASSWORD, ...proof }),
          "/sign-up/",
          AUTH_ERROR.SIGNUP_DISABLED,
        );
      }
      expect(await countUsers(t)).toBe(before);
      const ok = await postForm(t.app, "/auth/sign-up/", { email: invited, password: PASSWORD, ...link });
      expect(ok.headers.location).toBe("/");
      expect(sessionFrom(ok)).toBeTruthy();
      expect(await countUsers(t)).toBe(before + 1);
      const [user] = await t.db.select().from(users).where(eq(users.email, invited));
      expect(user?.isEmailVerified).toBe(true);
    });
  });

  it("leaves a password sign-up's address unproven, unless it carries its invitation link", async () => {
    const plain = freshEmail();
    await postForm(t.app, "/auth/sign-up/", { email: plain, password: PASSWORD });
    const invited = freshEmail();
    const link = await invite(invited);
    await postForm(t.app, "/auth/sign-up/", { email: invited, password: PASSWORD, ...link });
    const rows = await t.db.select().from(users);
    expect(rows.find((u) => u.email === plain)?.isEmailVerified).toBe(false);
    expect(rows.find((u) => u.email === invited)?.isEmailVerified).toBe(true);
  });
});

describe("POST /auth/sign-in/", () => {
  it("signs in with a new session, stamps the last login and lands on /", async () => {
    const user = await createUser(t.db);
    const res = await postForm(t.app, "/auth/sign-in/", { email: user.email.toUpperCase(), password: user.password });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const token = sessionFrom(res);
    expect(token).toBeTruthy();
    expect(token).not.toBe(user.token);
    expect(await sessionCount(user.id)).toBe(2);
    const row = await reloadUser(t.db, user.id);
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
    expect(row?.lastLoginIp).toBe("127.0.0.1");
    expect((await client(t.app, { token: token as string }).get("/api/instances/")).statusCode).toBe(200);
  });

  it("replaces the session the browser already had instead of keeping both", async () => {
    const user = await createUser(t.db);
    const res = await postForm(
      t.app,
      "/auth/sign-in/",
      { email: user.email, password: user.password },
      { "session-id": user.token },
    );
    expect(sessionFrom(res)).not.toBe(user.token);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("honours a same-origin next_path and falls back to / for open-redirect attempts", async () => {
    const user = await createUser(t.db);
    const ok = await postForm(t.app, "/auth/sign-in/", {
      email: user.email,
      password: user.password,
      next_path: "/acme/issues/",
    });
    expect(ok.headers.location).toBe("/acme/issues/");
    for (const next of ["//evil.com", "https://evil.com", "/\\evil", "javascript:alert(1)", "/%0d%0a//evil"]) {
      const res = await postForm(t.app, "/auth/sign-in/", {
        email: user.email,
        password: user.password,
        next_path: next,
      });
      expect(res.statusCode).toBe(302);
      const location = String(res.headers.location);
      expect(new URL(location, "http://localhost:3000").origin).toBe("http://localhost:3000");
      if (next !== "/%0d%0a//evil") expect(location).toBe("/");
      // On refusal the bad next_path is dropped from the error redirect.
      const wrong = await postForm(t.app, "/auth/sign-in/", {
        email: user.email,
        password: "wrong-password",
        next_path: next,
      });
      if (next !== "/%0d%0a//evil") expect(redirectQuery(wrong).query.next_path).toBeUndefined();
    }
  });

  it("names each refusal and sends it back to / without a session", async () => {
    const user = await createUser(t.db);
    const inactive = await createUser(t.db, { isActive: false });
    const noPassword = await createUser(t.db, { isPasswordAutoset: true, passwordHash: null });
    const cases: [Record<string, string>, number][] = [
      [{ email: "", password: "x" }, AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_IN],
      [{ email: user.email, password: "" }, AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_IN],
      [{ email: "bad@", password: "whatever-password" }, AUTH_ERROR.INVALID_EMAIL_SIGN_IN],
      [{ email: freshEmail(), password: "whatever-password" }, AUTH_ERROR.USER_DOES_NOT_EXIST],
      [{ email: inactive.email, password: inactive.password }, AUTH_ERROR.USER_ACCOUNT_DEACTIVATED],
      [{ email: user.email, password: "wrong-password" }, AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN],
      [{ email: noPassword.email, password: "anything-at-all" }, AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN],
      [{ email: user.email, password: user.password, csrfmiddlewaretoken: "forged" }, 5065],
    ];
    for (const [form, code] of cases) {
      const res = await postForm(t.app, "/auth/sign-in/", form);
      const query = expectRedirectError(res, "/", code as typeof AUTH_ERROR.USER_DOES_NOT_EXIST);
      if (form.email) expect(query.email).toBe(form.email);
    }
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("refuses with 5018 when password sign-in is off", async () => {
    const user = await createUser(t.db);
    await withConfig(t, { enable_email_password: false }, async () => {
      const res = await postForm(t.app, "/auth/sign-in/", { email: user.email, password: user.password });
      expectRedirectError(res, "/", AUTH_ERROR.PASSWORD_LOGIN_DISABLED);
    });
  });

  it("refuses a cross-site form post", async () => {
    const user = await createUser(t.db);
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/sign-in/",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("POST /auth/sign-out/", () => {
  it("deletes the session, clears the cookie and lands on /", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const signedIn = client(t.app, user);
    expect((await signedIn.get("/api/instances/configurations/")).statusCode).toBe(403);
    const res = await postForm(t.app, "/auth/sign-out/", {}, { "session-id": user.token });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const cleared = res.cookies.find((c) => c.name === "session-id");
    expect(cleared?.value).toBe("");
    expect(await sessionCount(user.id)).toBe(0);
    // The old cookie no longer authenticates.
    expect((await signedIn.get("/api/instances/configurations/")).statusCode).toBe(401);
    // Nobody else is signed out.
    expect(await sessionCount(other.id)).toBe(1);
  });

  it("refuses a post without a valid CSRF pair with 403 and keeps the session", async () => {
    const user = await createUser(t.db);
    const res = await postForm(
      t.app,
      "/auth/sign-out/",
      { csrfmiddlewaretoken: "forged" },
      { "session-id": user.token },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN");
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("is harmless without a session", async () => {
    const res = await postForm(t.app, "/auth/sign-out/", {});
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
  });
});
