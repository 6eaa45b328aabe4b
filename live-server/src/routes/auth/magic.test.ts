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
} from "../../../test/harness.ts";
import { hmac, unseal } from "../../auth/crypto.ts";
import { magicCodes, sessions, userProfiles, users } from "../../db/schema.ts";
import {
  countUsers,
  expectAuthError,
  expectRedirectError,
  startTestSmtp,
  type TestSmtp,
  withConfig,
} from "./test-support.ts";

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

let n = 0;
const freshEmail = () => `magic-${Date.now().toString(36)}-${n++}@example.com`;

/** Ask for a code and read it out of the delivered e-mail. */
async function requestCode(email: string): Promise<string> {
  const res = await client(t.app).post("/auth/magic-generate/", { email });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.ctx.jobs.kick();
  const mail = smtp.lastTo(email.trim().toLowerCase());
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.text}`);
  return code;
}

async function codeRow(email: string) {
  const [row] = await t.db.select().from(magicCodes).where(eq(magicCodes.email, email));
  return row;
}

const codeRows = (email: string) => t.db.select().from(magicCodes).where(eq(magicCodes.email, email));

/** The inject options of a form post (postForm's), to send from another client address. */
function formRequest(url: string, fields: Record<string, string>) {
  const csrf = "csrf-token-for-tests-0123456789abcdef";
  return {
    method: "POST" as const,
    url,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, ...fields }).toString(),
  };
}

/** A six-digit code that is not `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("POST /auth/magic-generate/", () => {
  it("mails a six-digit code and stores its keyed hash and a sealed copy, valid ten minutes", async () => {
    const email = freshEmail();
    const res = await client(t.app).post("/auth/magic-generate/", { email: ` ${email.toUpperCase()} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ key: email });
    await t.app.ctx.jobs.kick();
    const mail = smtp.lastTo(email);
    expect(mail.subject).toMatch(/sign-in code/);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    const row = await codeRow(email);
    // Keyed with the instance secret, so the stored value cannot be brute-forced from the database alone.
    expect(row?.codeHash).toBe(hmac(t.app.ctx.config.secretKey, `magic:${email}:${code}`));
    expect(JSON.stringify(row)).not.toContain(code);
    // Sealed with the instance secret: only the server can mail the same code again.
    expect(unseal(t.app.ctx.config.secretKey, "magic-code", row?.codeSealed ?? "")).toBe(code);
    expect(unseal("another-secret-of-enough-length-0123456789", "magic-code", row?.codeSealed ?? "")).toBeUndefined();
    expect(mail.text).toContain("valid for 10 minutes");
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(10 * 60 * 1000);
  });

  it("mails the same code again while it is good: asking again never replaces a mailed code", async () => {
    const email = freshEmail();
    const first = await requestCode(email);
    expect(await requestCode(email)).toBe(first);
    expect(await requestCode(email.toUpperCase())).toBe(first);
    expect(await codeRows(email)).toHaveLength(1);
    const ok = await postForm(t.app, "/auth/magic-sign-up/", { email, code: first });
    expect(ok.headers.location).toBe("/");
    // Used: every code of the address is gone.
    expect(await codeRows(email)).toHaveLength(0);
  });

  it("adds a new code when the newest is nearly used up, keeping the older ones valid; three at most", async () => {
    const user = await createUser(t.db);
    const ageNewest = () =>
      t.db
        .update(magicCodes)
        .set({ expiresAt: new Date(Date.now() + 4 * 60 * 1000) })
        .where(eq(magicCodes.email, user.email));
    const first = await requestCode(user.email);
    await ageNewest();
    const second = await requestCode(user.email);
    await ageNewest();
    const third = await requestCode(user.email);
    await ageNewest();
    // At the cap the newest is mailed again.
    expect(await requestCode(user.email)).toBe(third);
    expect(await codeRows(user.email)).toHaveLength(3);
    const mail = smtp.lastTo(user.email);
    expect(mail.text).toMatch(/valid for [45] minutes/);
    // Each of them signs in (while the others are still live: the first one used ends them all).
    const codes = new Set([first, second, third]);
    expect(codes.size).toBeGreaterThanOrEqual(2); // two random codes may collide, three hardly
    const res = await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: first });
    expect(sessionFrom(res)).toBeTruthy();
    expect(await codeRows(user.email)).toHaveLength(0);
    const again = await requestCode(user.email);
    expect(sessionFrom(await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: again }))).toBeTruthy();
    await ageNewest();
    const older = await requestCode(user.email);
    await ageNewest();
    await requestCode(user.email);
    expect(sessionFrom(await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: older }))).toBeTruthy();
  });

  it("refuses a missing or malformed e-mail with 5010 / 5005, storing nothing", async () => {
    const before = (await t.db.select().from(magicCodes)).length;
    expectAuthError(await client(t.app).post("/auth/magic-generate/", {}), AUTH_ERROR.EMAIL_REQUIRED);
    expectAuthError(await client(t.app).post("/auth/magic-generate/", { email: "x@y" }), AUTH_ERROR.INVALID_EMAIL);
    expect(await t.db.select().from(magicCodes)).toHaveLength(before);
  });

  it("refuses with 5016 when code sign-in is off", async () => {
    const email = freshEmail();
    await withConfig(t, { enable_magic_login: false }, async () => {
      expectAuthError(
        await client(t.app).post("/auth/magic-generate/", { email }),
        AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED,
      );
    });
    expect(await codeRow(email)).toBeUndefined();
  });

  it("refuses a deactivated account (5019), and a new address while sign-up is off (5015)", async () => {
    const inactive = await createUser(t.db, { isActive: false });
    expectAuthError(
      await client(t.app).post("/auth/magic-generate/", { email: inactive.email }),
      AUTH_ERROR.USER_ACCOUNT_DEACTIVATED,
    );
    const email = freshEmail();
    await withConfig(t, { enable_signup: false }, async () => {
      expectAuthError(await client(t.app).post("/auth/magic-generate/", { email }), AUTH_ERROR.SIGNUP_DISABLED);
      const user = await createUser(t.db);
      expect((await client(t.app).post("/auth/magic-generate/", { email: user.email })).statusCode).toBe(200);
    });
    expect(await codeRow(email)).toBeUndefined();
  });
});

describe("POST /auth/magic-sign-up/", () => {
  it("creates a verified user without a password, signs them in, and the code works once", async () => {
    const email = freshEmail();
    const code = await requestCode(email);
    const res = await postForm(t.app, "/auth/magic-sign-up/", { email, code, next_path: "/onboarding/" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/onboarding/");
    const token = sessionFrom(res);
    expect(token).toBeTruthy();
    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({
      isPasswordAutoset: true,
      passwordHash: null,
      isEmailVerified: true,
      displayName: email.split("@")[0],
    });
    expect(
      await t.db
        .select()
        .from(userProfiles)
        .where(eq(userProfiles.userId, user?.id ?? "")),
    ).toHaveLength(1);
    expect(await codeRow(email)).toBeUndefined();
    expect((await client(t.app, { token: token as string }).get("/api/instances/")).statusCode).toBe(200);

    // Used once: the same code cannot sign in now.
    const again = await postForm(t.app, "/auth/magic-sign-in/", { email, code });
    expectRedirectError(again, "/", AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN);
  });

  it("names each refusal, sends it back to /sign-up/ and stores nothing", async () => {
    const existing = await createUser(t.db);
    const email = freshEmail();
    const code = await requestCode(email);
    const before = await countUsers(t);
    const cases: [Record<string, string>, number][] = [
      [{ email: "", code }, AUTH_ERROR.MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED],
      [{ email, code: "" }, AUTH_ERROR.MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED],
      [{ email: "bad-address", code }, AUTH_ERROR.INVALID_EMAIL_MAGIC_SIGN_UP],
      [{ email: existing.email, code }, AUTH_ERROR.USER_ALREADY_EXIST],
      [{ email, code, csrfmiddlewaretoken: "forged" }, AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_UP],
      [{ email: freshEmail(), code }, AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_UP],
    ];
    for (const [form, expected] of cases) {
      const res = await postForm(t.app, "/auth/magic-sign-up/", form);
      expectRedirectError(res, "/sign-up/", expected as typeof AUTH_ERROR.USER_ALREADY_EXIST);
    }
    await withConfig(t, { enable_magic_login: false }, async () => {
      const res = await postForm(t.app, "/auth/magic-sign-up/", { email, code });
      expectRedirectError(res, "/sign-up/", AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED);
    });
    await withConfig(t, { enable_signup: false }, async () => {
      const res = await postForm(t.app, "/auth/magic-sign-up/", { email, code });
      expectRedirectError(res, "/sign-up/", AUTH_ERROR.SIGNUP_DISABLED);
    });
    expect(await countUsers(t)).toBe(before);
    // None of these refusals spent the code: it still signs up.
    expect((await postForm(t.app, "/auth/magic-sign-up/", { email, code })).headers.location).toBe("/");
  });

  it("refuses an expired code with 5097 and deletes it", async () => {
    const email = freshEmail();
    const code = await requestCode(email);
    await t.db
      .update(magicCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(magicCodes.email, email));
    const before = await countUsers(t);
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-up/", { email, code }),
      "/sign-up/",
      AUTH_ERROR.EXPIRED_MAGIC_CODE_SIGN_UP,
    );
    expect(await codeRow(email)).toBeUndefined();
    expect(await countUsers(t)).toBe(before);
  });

  it("allows a source three wrong tries; its fourth, even right, is 5102 — and the code stays good for others", async () => {
    const email = freshEmail();
    const code = await requestCode(email);
    for (let i = 0; i < 3; i++) {
      expectRedirectError(
        await postForm(t.app, "/auth/magic-sign-up/", { email, code: wrongCode(code) }),
        "/sign-up/",
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_UP,
      );
    }
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-up/", { email, code }),
      "/sign-up/",
      AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_UP,
    );
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    // The code itself was not burnt: from another network it still signs up.
    expect(await codeRow(email)).toBeDefined();
    const ok = await t.app.inject({
      ...formRequest("/auth/magic-sign-up/", { email, code }),
      remoteAddress: "192.0.2.10",
    });
    expect(ok.headers.location).toBe("/");
  });

  it("gives a source whose tries are used up a new code when it asks again, the old one still good", async () => {
    const user = await createUser(t.db);
    const code = await requestCode(user.email);
    for (let i = 0; i < 3; i++)
      await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: wrongCode(code) });
    let fresh = await requestCode(user.email);
    // A new code (the same one would be no use to this source); 1 in a million they are equal.
    if (fresh === code) fresh = await requestCode(user.email);
    expect(await codeRows(user.email)).toHaveLength(2);
    expect(sessionFrom(await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: fresh }))).toBeTruthy();
  });

  it("accepts the right code on the third try", async () => {
    const email = freshEmail();
    const code = await requestCode(email);
    for (let i = 0; i < 2; i++) await postForm(t.app, "/auth/magic-sign-up/", { email, code: wrongCode(code) });
    expect((await postForm(t.app, "/auth/magic-sign-up/", { email, code })).headers.location).toBe("/");
  });
});

describe("POST /auth/magic-sign-in/", () => {
  it("signs an existing user in with a new session, keeping their other sessions", async () => {
    const user = await createUser(t.db);
    const code = await requestCode(user.email);
    const res = await postForm(t.app, "/auth/magic-sign-in/", { email: user.email.toUpperCase(), code });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/");
    const token = sessionFrom(res);
    expect(token).toBeTruthy();
    expect(token).not.toBe(user.token);
    const row = await reloadUser(t.db, user.id);
    expect(row?.isEmailVerified).toBe(true);
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(2);
    // Once only.
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }),
      "/",
      AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
    );
  });

  it("falls back to / for open-redirect next_paths", async () => {
    for (const next of ["//evil.com", "https://evil.com", "/\\evil"]) {
      const user = await createUser(t.db);
      const code = await requestCode(user.email);
      const res = await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code, next_path: next });
      expect(res.headers.location).toBe("/");
    }
  });

  it("names each refusal and sends it back to /", async () => {
    const user = await createUser(t.db);
    const inactive = await createUser(t.db);
    const code = await requestCode(user.email);
    const inactiveCode = await requestCode(inactive.email);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    const cases: [Record<string, string>, number][] = [
      [{ email: "", code }, AUTH_ERROR.MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED],
      [{ email: user.email, code: " " }, AUTH_ERROR.MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED],
      [{ email: "not@valid", code }, AUTH_ERROR.INVALID_EMAIL_MAGIC_SIGN_IN],
      [{ email: freshEmail(), code }, AUTH_ERROR.USER_DOES_NOT_EXIST],
      [{ email: inactive.email, code: inactiveCode }, AUTH_ERROR.USER_ACCOUNT_DEACTIVATED],
      [{ email: user.email, code, csrfmiddlewaretoken: "forged" }, AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN],
      [{ email: user.email, code: wrongCode(code) }, AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN],
    ];
    for (const [form, expected] of cases) {
      const res = await postForm(t.app, "/auth/magic-sign-in/", form);
      const query = expectRedirectError(res, "/", expected as typeof AUTH_ERROR.USER_DOES_NOT_EXIST);
      if (form.email) expect(query.email).toBe(form.email);
    }
    await withConfig(t, { enable_magic_login: false }, async () => {
      expectRedirectError(
        await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }),
        "/",
        AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED,
      );
    });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    // One wrong try was counted; the right code still works.
    expect(sessionFrom(await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }))).toBeTruthy();
  });

  it("refuses an expired code with 5095", async () => {
    const user = await createUser(t.db);
    const code = await requestCode(user.email);
    await t.db
      .update(magicCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(magicCodes.email, user.email));
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }),
      "/",
      AUTH_ERROR.EXPIRED_MAGIC_CODE_SIGN_IN,
    );
  });

  it("refuses a source's fourth try after three wrong ones with 5100, without burning the code", async () => {
    const user = await createUser(t.db);
    const code = await requestCode(user.email);
    for (let i = 0; i < 3; i++) {
      expectRedirectError(
        await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: wrongCode(code) }),
        "/",
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      );
    }
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }),
      "/",
      AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN,
    );
    expect(await codeRow(user.email)).toBeDefined();
  });

  it("compares at most three of a burst of parallel guesses from one source", async () => {
    const user = await createUser(t.db);
    const code = await requestCode(user.email);
    const guesses = Array.from({ length: 8 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all(
      guesses.map((guess) => postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code: guess })),
    );
    const codes = results.map((r) => new URL(String(r.headers.location), "http://x").searchParams.get("error_code"));
    expect(codes.filter((c) => c === String(AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN))).toHaveLength(3);
    expect(codes.filter((c) => c === String(AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN))).toHaveLength(5);
    expect(results.every((r) => !sessionFrom(r))).toBe(true);
    // This source is done; the owner, elsewhere, signs in with the code.
    expectRedirectError(
      await postForm(t.app, "/auth/magic-sign-in/", { email: user.email, code }),
      "/",
      AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN,
    );
    const owner = await t.app.inject({
      ...formRequest("/auth/magic-sign-in/", { email: user.email, code }),
      remoteAddress: "2001:db8:1:2::7",
    });
    expect(sessionFrom(owner)).toBeTruthy();
  });
});
