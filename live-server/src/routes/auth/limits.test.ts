/**
 * The instance-level refusals: not set up yet (5000), no SMTP (5025), and the rate limits (5900),
 * on an app without SMTP and with tiny limits — including that nobody else's failures can lock
 * the owner of an account out: calls that check no secret meet walls, credential checks only
 * ever wait (per source and per account).
 */
import { AUTH_ERROR } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, ORIGIN, setupInstance, type TestApp } from "../../../test/harness.ts";
import { instance, jobs, magicCodes, passwordTokens } from "../../db/schema.ts";
import { codeToMail } from "./magic-code.ts";
import { countUsers, expectAuthError, expectRedirectError } from "./test-support.ts";

const PER_IP = 90;
const PER_EMAIL = 3;
// Past it, a source's credential checks are 60 s / 30 = 2 s apart.
const PER_IP_FAILURES = 30;
const ACCOUNT_FAILURES = 3;
const LOCK_DELAY_MS = 100;
const MAX_HOLD_MS = 5000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      authRateLimits: {
        perIpPerMinute: PER_IP,
        perEmailPerMinute: PER_EMAIL,
        perIpFailuresPerMinute: PER_IP_FAILURES,
        accountFailuresBeforeDelay: ACCOUNT_FAILURES,
        lockDelayMs: LOCK_DELAY_MS,
        maxHoldMs: MAX_HOLD_MS,
      },
    },
  );
});
afterAll(() => t.close());

let n = 0;
const freshEmail = () => `limits-${Date.now().toString(36)}-${n++}@example.com`;

/** A JSON auth call from a given client address (each test uses its own, so limits don't mix). */
function postJson(app: FastifyInstance, url: string, body: Record<string, unknown>, ip: string) {
  return app.inject({ method: "POST", url, payload: body, headers: { origin: ORIGIN }, remoteAddress: ip });
}

function postFormFrom(app: FastifyInstance, url: string, fields: Record<string, string>, ip: string) {
  const csrf = "csrf-token-for-tests-0123456789abcdef";
  return app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, ...fields }).toString(),
  });
}

/** `count` wrong passwords from `ip`, spread over several accounts so that none of them gets locked. */
async function wrongPasswordsFrom(ip: string, count: number): Promise<void> {
  const accounts = await Promise.all(
    Array.from({ length: Math.ceil(count / (ACCOUNT_FAILURES - 1)) }, () => createUser(t.db)),
  );
  for (let i = 0; i < count; i++) {
    const user = accounts[Math.floor(i / (ACCOUNT_FAILURES - 1))] as (typeof accounts)[number];
    expectRedirectError(
      await postFormFrom(t.app, "/auth/sign-in/", { email: user.email, password: "wrong-password" }, ip),
      "/",
      AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
    );
  }
}

describe("before the instance is set up", () => {
  it("refuses every sign-in and sign-up flow with 5000 and stores nothing", async () => {
    const ip = "10.0.0.1";
    const before = await countUsers(t);
    const check = async () => {
      expectAuthError(
        await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip),
        AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
      );
      expectAuthError(
        await postJson(t.app, "/auth/magic-generate/", { email: freshEmail() }, ip),
        AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
      );
      for (const [url, page] of [
        ["/auth/sign-up/", "/sign-up/"],
        ["/auth/magic-sign-up/", "/sign-up/"],
        ["/auth/sign-in/", "/"],
        ["/auth/magic-sign-in/", "/"],
      ] as const) {
        expectRedirectError(
          await postFormFrom(
            t.app,
            url,
            { email: freshEmail(), password: "a-long-enough-password", code: "123456" },
            ip,
          ),
          page,
          AUTH_ERROR.INSTANCE_NOT_CONFIGURED,
        );
      }
    };
    await check();
    // Marked set up but without an administrator still counts as not set up.
    await t.db.update(instance).set({ isSetupDone: true });
    await check();
    await t.db.update(instance).set({ isSetupDone: false });
    expect(await countUsers(t)).toBe(before);
    expect(await t.db.select().from(magicCodes)).toHaveLength(0);

    await setupInstance(t.db);
    const ok = await postFormFrom(
      t.app,
      "/auth/sign-up/",
      { email: freshEmail(), password: "a-long-enough-password" },
      ip,
    );
    expect(ok.headers.location).toBe("/");
  });
});

describe("without SMTP", () => {
  it("refuses forgot-password with 5025 and stores no token", async () => {
    const user = await createUser(t.db);
    expectAuthError(
      await postJson(t.app, "/auth/forgot-password/", { email: user.email }, "10.0.0.2"),
      AUTH_ERROR.SMTP_NOT_CONFIGURED,
    );
    expect(await t.db.select().from(passwordTokens)).toHaveLength(0);
  });

  it("still issues sign-in codes, delivered to the log", async () => {
    const email = freshEmail();
    const res = await postJson(t.app, "/auth/magic-generate/", { email }, "10.0.0.3");
    expect(res.statusCode).toBe(200);
    expect(await t.db.select().from(magicCodes).where(eq(magicCodes.email, email))).toHaveLength(1);
    await t.app.ctx.jobs.kick();
    // The mail job ran (logged, not failed) and left the queue.
    expect(await t.db.select().from(jobs)).toHaveLength(0);
  });
});

describe("the auth rate limit", () => {
  it(`sends at most ${PER_EMAIL} mails a minute to one address; its e-mail check and sign-in still work`, async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < PER_EMAIL; i++) {
      expect((await postJson(t.app, "/auth/magic-generate/", { email: user.email }, `10.0.1.${i}`)).statusCode).toBe(
        200,
      );
    }
    expectAuthError(
      await postJson(t.app, "/auth/magic-generate/", { email: user.email.toUpperCase() }, "10.0.1.9"),
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    // Someone hammering the address does not keep its owner from the sign-in screens.
    for (let i = 0; i < PER_EMAIL + 2; i++) {
      expect((await postJson(t.app, "/auth/email-check/", { email: user.email }, `10.0.2.${i}`)).statusCode).toBe(200);
    }
    const signIn = await postFormFrom(
      t.app,
      "/auth/sign-in/",
      { email: user.email, password: user.password },
      "10.0.2.99",
    );
    expect(signIn.headers.location).toBe("/");
  });

  it(`allows ${PER_IP} calls that check no secret a minute per client address; a sign-in from there still runs`, async () => {
    const ip = "10.0.0.7";
    for (let i = 0; i < PER_IP; i++) {
      expect((await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip)).statusCode).toBe(200);
    }
    expectAuthError(
      await postJson(t.app, "/auth/email-check/", { email: freshEmail() }, ip),
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    expectAuthError(await postJson(t.app, "/auth/email-check/", {}, ip), AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    expectAuthError(
      await postJson(t.app, "/auth/magic-generate/", { email: freshEmail() }, ip),
      AUTH_ERROR.RATE_LIMIT_EXCEEDED,
    );
    // A password check is never refused for its address's traffic: it waits its turn and runs.
    const user = await createUser(t.db);
    expectRedirectError(
      await postFormFrom(t.app, "/auth/sign-in/", { email: user.email, password: "whatever-password" }, ip),
      "/",
      AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
    );
    const ok = await postFormFrom(t.app, "/auth/sign-in/", { email: user.email, password: user.password }, ip);
    expect(ok.headers.location).toBe("/");
  });

  it(`lets the right password in from a client address past ${PER_IP_FAILURES} wrong ones by others (one office behind NAT)`, async () => {
    const ip = "10.0.3.1";
    await wrongPasswordsFrom(ip, PER_IP_FAILURES);
    // A colleague's right password from the same address: held for its turn, then signed in.
    const colleague = await createUser(t.db);
    const res = await postFormFrom(
      t.app,
      "/auth/sign-in/",
      { email: colleague.email, password: colleague.password, next_path: "/acme/" },
      ip,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/acme/");
    expect(res.cookies.find((c) => c.name === "session-id")?.value).toBeTruthy();
    // And the right code, for someone signing in by code from there (its turn is 2 s later).
    const byCode = await createUser(t.db, { passwordHash: null, isPasswordAutoset: true });
    const { code } = await codeToMail(t.db, byCode.email, t.app.ctx.config.secretKey);
    const signedIn = await postFormFrom(t.app, "/auth/magic-sign-in/", { email: byCode.email, code }, ip);
    expect(signedIn.headers.location).toBe("/");
  });

  it(`lets the instance administrator into god-mode from a client address past ${PER_IP_FAILURES} wrong passwords by others`, async () => {
    const ip = "10.0.3.5";
    const admin = await setupInstance(t.db);
    await wrongPasswordsFrom(ip, PER_IP_FAILURES);
    // God-mode's sign-in used the per-IP wall: the administrator behind that NAT got 5900.
    const res = await postFormFrom(
      t.app,
      "/api/instances/admins/sign-in/",
      { email: admin.email, password: admin.password },
      ip,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/god-mode/general/");
    expect(res.cookies.find((c) => c.name === "session-id")?.value).toBeTruthy();
  });

  it("refuses a flood from one address with 5900 rather than queueing it without end", async () => {
    const ip = "10.0.3.9";
    const user = await createUser(t.db);
    await wrongPasswordsFrom(ip, PER_IP_FAILURES);
    // Turns are 2 s apart: a burst books the next ones; past MAX_HOLD_MS the rest are refused.
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        postFormFrom(t.app, "/auth/sign-in/", { email: user.email, password: "wrong-password" }, ip),
      ),
    );
    const codes = burst.map((r) => new URL(String(r.headers.location), ORIGIN).searchParams.get("error_code"));
    expect(codes).toContain(String(AUTH_ERROR.RATE_LIMIT_EXCEEDED));
    expect(codes).toContain(String(AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN));
  });

  it("cannot lock the owner out: wrong passwords from many addresses only delay the account, the right one gets in", async () => {
    const victim = await createUser(t.db);
    // An attacker spreads wrong guesses over many addresses (under each IP's failure wall).
    for (let i = 0; i < ACCOUNT_FAILURES * 3; i++) {
      expectRedirectError(
        await postFormFrom(
          t.app,
          "/auth/sign-in/",
          { email: victim.email, password: `guess-${i}-password` },
          `10.0.4.${i}`,
        ),
        "/",
        AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
      );
    }
    expect(await t.app.ctx.authLimiter.isLocked(victim.email)).toBe(true);
    // The account is locked: a wrong guess now waits the lock delay and still fails…
    let started = performance.now();
    expectRedirectError(
      await postFormFrom(t.app, "/auth/sign-in/", { email: victim.email, password: "another-guess" }, "10.0.4.200"),
      "/",
      AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(LOCK_DELAY_MS - 5);
    // …and the owner's right password, from their own address, waits too but signs them in.
    started = performance.now();
    const res = await postFormFrom(
      t.app,
      "/auth/sign-in/",
      { email: victim.email, password: victim.password, next_path: "/acme/" },
      "10.0.5.1",
    );
    const waited = performance.now() - started;
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/acme/");
    expect(res.cookies.find((c) => c.name === "session-id")?.value).toBeTruthy();
    expect(waited).toBeGreaterThanOrEqual(LOCK_DELAY_MS - 5);
    // The success cleared the count: the next sign-in is not held.
    expect(await t.app.ctx.authLimiter.isLocked(victim.email)).toBe(false);
  });

  it("cannot lock the owner out of code sign-in either: wrong codes from elsewhere burn nothing", async () => {
    const victim = await createUser(t.db, { passwordHash: null, isPasswordAutoset: true });
    // The owner asked for a code; an attacker asks again and guesses from several addresses.
    const { code } = await codeToMail(t.db, victim.email, t.app.ctx.config.secretKey);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      await postJson(t.app, "/auth/magic-generate/", { email: victim.email }, `10.0.6.${i}`);
      expectRedirectError(
        await postFormFrom(t.app, "/auth/magic-sign-in/", { email: victim.email, code: wrong }, `10.0.6.${i}`),
        "/",
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      );
    }
    const res = await postFormFrom(t.app, "/auth/magic-sign-in/", { email: victim.email, code }, "10.0.7.1");
    expect(res.headers.location).toBe("/");
  });

  it("slows, never walls, wrong old passwords of a password change from one client address", async () => {
    const user = await createUser(t.db);
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/auth/change-password/",
        remoteAddress: "10.0.0.8",
        headers: { origin: ORIGIN, cookie: `session-id=${user.token}` },
        payload: { old_password: "wrong-password", new_password: "a-brand-new-password" },
      });
    for (let i = 0; i < PER_IP_FAILURES; i++) expectAuthError(await call(), AUTH_ERROR.INCORRECT_OLD_PASSWORD);
    // Past the budget the next one waits its turn and is answered for what it is.
    expectAuthError(await call(), AUTH_ERROR.INCORRECT_OLD_PASSWORD);
    const right = await t.app.inject({
      method: "POST",
      url: "/auth/change-password/",
      remoteAddress: "10.0.0.8",
      headers: { origin: ORIGIN, cookie: `session-id=${user.token}` },
      payload: { old_password: user.password, new_password: "a-brand-new-password" },
    });
    expect(right.statusCode, right.body).toBe(200);
  });
});
