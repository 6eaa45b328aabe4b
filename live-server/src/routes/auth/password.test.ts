import { AUTH_ERROR } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  ORIGIN,
  postForm,
  reloadUser,
  sessionFrom,
  setupInstance,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { verifyPassword } from "../../auth/crypto.ts";
import { createSession } from "../../auth/sessions.ts";
import { passwordTokens, sessions } from "../../db/schema.ts";
import { expectAuthError, expectRedirectError, startTestSmtp, type TestSmtp } from "./test-support.ts";

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp(
    { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) },
    { authRateLimits: { perIpPerMinute: 100_000, perEmailPerMinute: 100_000 } },
  );
  await setupInstance(t.db);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const NEW_PASSWORD = "a-brand-new-password";

async function sessionCount(userId: string): Promise<number> {
  return (await t.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

async function tokenRows(userId: string) {
  return t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, userId));
}

/** Ask for a reset link and read it out of the delivered e-mail. */
async function requestReset(user: TestUser): Promise<{ uid: string; token: string; link: URL }> {
  const res = await client(t.app).post("/auth/forgot-password/", { email: user.email });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.ctx.jobs.kick();
  const text = smtp.lastTo(user.email).text;
  const found = /(https?:\/\/\S+\/accounts\/reset-password\/\?\S+)/.exec(text)?.[1];
  if (!found) throw new Error(`no link in mail: ${text}`);
  const link = new URL(found);
  return { uid: link.searchParams.get("uidb64") ?? "", token: link.searchParams.get("token") ?? "", link };
}

const reset = (uid: string, token: string, body: Record<string, unknown>) =>
  client(t.app).post(`/auth/reset-password/${encodeURIComponent(uid)}/${encodeURIComponent(token)}/`, body);

describe("POST /auth/forgot-password/", () => {
  it("mails a one-hour link to the reset page and stores only the token's hash", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app).post("/auth/forgot-password/", { email: user.email.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBeTruthy();
    await t.app.ctx.jobs.kick();
    const mail = smtp.lastTo(user.email);
    expect(mail.subject).toMatch(/Reset your .* password/);
    const { uid, token, link } = await requestReset(user);
    expect(link.origin).toBe(ORIGIN);
    expect(link.pathname).toBe("/accounts/reset-password/");
    expect(uid).toBe(user.id);
    expect(link.searchParams.get("email")).toBe(user.email);
    expect(token.length).toBeGreaterThanOrEqual(32);
    // A second request replaced the first token: one live row, holding no clear token.
    const rows = await tokenRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toBe(token);
    expect(rows[0]?.usedAt).toBeNull();
    const ttl = (rows[0]?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it("refuses a missing, malformed, unknown or deactivated address and stores nothing", async () => {
    const inactive = await createUser(t.db, { isActive: false });
    const before = (await t.db.select().from(passwordTokens)).length;
    const forgot = (body: Record<string, unknown>) => client(t.app).post("/auth/forgot-password/", body);
    expectAuthError(await forgot({}), AUTH_ERROR.EMAIL_REQUIRED);
    expectAuthError(await forgot({ email: "nope" }), AUTH_ERROR.INVALID_EMAIL);
    expectAuthError(await forgot({ email: "nobody-here@example.com" }), AUTH_ERROR.USER_DOES_NOT_EXIST);
    expectAuthError(await forgot({ email: inactive.email }), AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
    expect(await t.db.select().from(passwordTokens)).toHaveLength(before);
  });

  it("makes an earlier link stop working", async () => {
    const user = await createUser(t.db);
    const first = await requestReset(user);
    const second = await requestReset(user);
    expectAuthError(await reset(user.id, first.token, { password: NEW_PASSWORD }), AUTH_ERROR.INVALID_PASSWORD_TOKEN);
    expect((await reset(user.id, second.token, { password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});

describe("POST /auth/reset-password/:uid/:token/", () => {
  it("sets the new password, uses the token up and signs the user out everywhere", async () => {
    const user = await createUser(t.db, { isPasswordAutoset: true });
    await createSession(t.db, user.id, {});
    expect(await sessionCount(user.id)).toBe(2);
    const { uid, token } = await requestReset(user);
    const res = await reset(uid, token, { password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBeTruthy();

    const row = await reloadUser(t.db, user.id);
    expect(await verifyPassword(NEW_PASSWORD, row?.passwordHash ?? null)).toBe(true);
    expect(row?.isPasswordAutoset).toBe(false);
    expect((await tokenRows(user.id))[0]?.usedAt).toBeInstanceOf(Date);
    expect(await sessionCount(user.id)).toBe(0);
    expect((await client(t.app, user).get("/api/instances/configurations/")).statusCode).toBe(401);

    // The old password is dead, the new one signs in, and the link cannot be used again.
    const old = await postForm(t.app, "/auth/sign-in/", { email: user.email, password: user.password });
    expectRedirectError(old, "/", AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN);
    expect(
      sessionFrom(await postForm(t.app, "/auth/sign-in/", { email: user.email, password: NEW_PASSWORD })),
    ).toBeTruthy();
    expectAuthError(await reset(uid, token, { password: "yet-another-password" }), AUTH_ERROR.INVALID_PASSWORD_TOKEN);
  });

  it("refuses an unknown token, another user's id or a garbage id with 5125, changing nothing", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const { token } = await requestReset(user);
    expectAuthError(
      await reset(user.id, "not-a-real-token", { password: NEW_PASSWORD }),
      AUTH_ERROR.INVALID_PASSWORD_TOKEN,
    );
    expectAuthError(await reset(other.id, token, { password: NEW_PASSWORD }), AUTH_ERROR.INVALID_PASSWORD_TOKEN);
    expectAuthError(await reset("not-a-uuid", token, { password: NEW_PASSWORD }), AUTH_ERROR.INVALID_PASSWORD_TOKEN);
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
    expect(await verifyPassword(other.password, (await reloadUser(t.db, other.id))?.passwordHash ?? null)).toBe(true);
    expect(await sessionCount(user.id)).toBe(1);
    expect((await tokenRows(user.id))[0]?.usedAt).toBeNull();
  });

  it("refuses an expired token with 5130", async () => {
    const user = await createUser(t.db);
    const { token } = await requestReset(user);
    await t.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordTokens.userId, user.id));
    expectAuthError(await reset(user.id, token, { password: NEW_PASSWORD }), AUTH_ERROR.EXPIRED_PASSWORD_TOKEN);
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
  });

  it("refuses a missing or short password with 5140 and keeps the link usable", async () => {
    const user = await createUser(t.db);
    const { token } = await requestReset(user);
    expectAuthError(await reset(user.id, token, {}), AUTH_ERROR.INVALID_NEW_PASSWORD);
    expectAuthError(await reset(user.id, token, { password: "short" }), AUTH_ERROR.INVALID_NEW_PASSWORD);
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
    expect(await sessionCount(user.id)).toBe(1);
    expect((await reset(user.id, token, { password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});

describe("POST /auth/set-password/", () => {
  it("needs a session (401)", async () => {
    const res = await client(t.app).post("/auth/set-password/", { password: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
  });

  it("sets the first password of a user who has none, and returns the user", async () => {
    const user = await createUser(t.db, { isPasswordAutoset: true, passwordHash: null });
    const res = await client(t.app, user).post("/auth/set-password/", { password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, is_password_autoset: false });
    expect(res.json().password_hash).toBeUndefined();
    const row = await reloadUser(t.db, user.id);
    expect(await verifyPassword(NEW_PASSWORD, row?.passwordHash ?? null)).toBe(true);
    expect(
      sessionFrom(await postForm(t.app, "/auth/sign-in/", { email: user.email, password: NEW_PASSWORD })),
    ).toBeTruthy();
    // Now it is set: a second call is refused.
    expectAuthError(
      await client(t.app, user).post("/auth/set-password/", { password: "something-else-long" }),
      AUTH_ERROR.PASSWORD_ALREADY_SET,
    );
  });

  it("refuses with 5145 when the user chose their password, changing nothing", async () => {
    const user = await createUser(t.db);
    expectAuthError(
      await client(t.app, user).post("/auth/set-password/", { password: NEW_PASSWORD }),
      AUTH_ERROR.PASSWORD_ALREADY_SET,
    );
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
  });

  it("refuses a missing or short password with 5140", async () => {
    const user = await createUser(t.db, { isPasswordAutoset: true, passwordHash: null });
    expectAuthError(await client(t.app, user).post("/auth/set-password/", {}), AUTH_ERROR.INVALID_NEW_PASSWORD);
    expectAuthError(
      await client(t.app, user).post("/auth/set-password/", { password: "short" }),
      AUTH_ERROR.INVALID_NEW_PASSWORD,
    );
    const row = await reloadUser(t.db, user.id);
    expect(row?.passwordHash).toBeNull();
    expect(row?.isPasswordAutoset).toBe(true);
  });
});

describe("POST /auth/change-password/", () => {
  const change = (user: TestUser | null, body: Record<string, unknown>) =>
    client(t.app, user).post("/auth/change-password/", body);

  it("needs a session (401)", async () => {
    expect((await change(null, { old_password: "x", new_password: NEW_PASSWORD })).statusCode).toBe(401);
  });

  it("changes the password and signs out the user's other sessions only", async () => {
    const user = await createUser(t.db);
    const otherDevice = await createSession(t.db, user.id, {});
    const bystander = await createUser(t.db);
    const res = await change(user, { old_password: user.password, new_password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: "Password changed successfully." });
    expect(await verifyPassword(NEW_PASSWORD, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
    expect(await sessionCount(user.id)).toBe(1);
    expect((await client(t.app, user).get("/api/instances/configurations/")).statusCode).toBe(403);
    expect((await client(t.app, { token: otherDevice }).get("/api/instances/configurations/")).statusCode).toBe(401);
    expect(await sessionCount(bystander.id)).toBe(1);
  });

  it("names each refusal and changes nothing", async () => {
    const user = await createUser(t.db);
    await createSession(t.db, user.id, {});
    expectAuthError(await change(user, { new_password: NEW_PASSWORD }), AUTH_ERROR.MISSING_PASSWORD);
    expectAuthError(await change(user, { old_password: user.password }), AUTH_ERROR.MISSING_PASSWORD);
    expectAuthError(
      await change(user, { old_password: "not-my-password", new_password: NEW_PASSWORD }),
      AUTH_ERROR.INCORRECT_OLD_PASSWORD,
    );
    expectAuthError(
      await change(user, { old_password: user.password, new_password: "short" }),
      AUTH_ERROR.INVALID_NEW_PASSWORD,
    );
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
    expect(await sessionCount(user.id)).toBe(2);
  });

  it("refuses a cross-site call", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user, { origin: "https://evil.example" }).post("/auth/change-password/", {
      old_password: user.password,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(await verifyPassword(user.password, (await reloadUser(t.db, user.id))?.passwordHash ?? null)).toBe(true);
  });
});
