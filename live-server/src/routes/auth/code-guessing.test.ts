/**
 * Nobody but the owner of a mailbox can make the code mailed to it stop working, and guessing
 * codes stays bounded (auth/rate-limit.ts, magic-code.ts): wrong guesses count per address and
 * source, never on the code; asking again — by anyone — mails the same code or adds one, never
 * replaces it; past a few failures at an address, guesses from sources that guessed wrong before
 * take turns, far apart. Real SMTP; each "source" is a client address.
 */
import { AUTH_ERROR } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestApp,
  createUser,
  ORIGIN,
  redirectQuery,
  reloadUser,
  sessionFrom,
  setupInstance,
  type TestApp,
} from "../../../test/harness.ts";
import { magicCodes } from "../../db/schema.ts";
import { startTestSmtp, type TestSmtp } from "./test-support.ts";

const QUEUE_AFTER = 4;
const GAP_MS = 60_000;

let t: TestApp;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp(
    { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) },
    {
      authRateLimits: {
        perIpPerMinute: 100_000,
        perEmailPerMinute: 100_000,
        codeTriesPerSource: 3,
        codeFailuresBeforeQueue: QUEUE_AFTER,
        // Turns a minute apart and no waiting at all: a guess that would have to wait is refused
        // (5900) without being compared, so what gets compared does not depend on timing.
        lockDelayMs: GAP_MS,
        codeMaxGapMs: GAP_MS,
        maxHoldMs: 0,
      },
    },
  );
  await setupInstance(t.db);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const CSRF = "csrf-token-for-tests-0123456789abcdef";

/** Ask for a sign-in code from `ip`; answers the code in the mail it caused. */
async function requestCode(email: string, ip: string): Promise<string> {
  const before = smtp.inbox.length;
  const res = await t.app.inject({
    method: "POST",
    url: "/auth/magic-generate/",
    payload: { email },
    headers: { origin: ORIGIN },
    remoteAddress: ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  return codeInNextMail(email, before);
}

async function codeInNextMail(email: string, before: number): Promise<string> {
  await t.app.ctx.jobs.kick();
  const mail = smtp.inbox.slice(before).find((m) => m.to.includes(email));
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

function signInWithCode(email: string, code: string, ip: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: "POST",
    url: "/auth/magic-sign-in/",
    remoteAddress: ip,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${CSRF}` },
    payload: new URLSearchParams({ csrfmiddlewaretoken: CSRF, email, code }).toString(),
  });
}

const errorCode = (res: LightMyRequestResponse) => Number(redirectQuery(res).query.error_code);

const wrongCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

describe("someone else's guesses and requests", () => {
  it("burn nothing: after an attacker's wrong guesses from other addresses, the owner's code signs in", async () => {
    const owner = await createUser(t.db, { passwordHash: null, isPasswordAutoset: true });
    const code = await requestCode(owner.email, "198.51.100.1");
    const attacker = "203.0.113.1";
    for (let i = 1; i <= 3; i++) {
      expect(errorCode(await signInWithCode(owner.email, wrongCode(code, i), attacker))).toBe(
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      );
    }
    // The attacker's tries are used up, and only the attacker's.
    expect(errorCode(await signInWithCode(owner.email, code, attacker))).toBe(
      AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN,
    );
    // Asking for more codes adds one (this source's tries were used up) but replaces none.
    await requestCode(owner.email, attacker);
    await requestCode(owner.email, "203.0.113.2");
    expect(errorCode(await signInWithCode(owner.email, wrongCode(code, 4), "203.0.113.2"))).toBe(
      AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
    );
    const res = await signInWithCode(owner.email, code, "198.51.100.1");
    expect(res.headers.location).toBe("/");
    expect(sessionFrom(res)).toBeTruthy();
  });

  it("a second request keeps the first mailed code valid: the same code is mailed again", async () => {
    const owner = await createUser(t.db, { passwordHash: null, isPasswordAutoset: true });
    const code = await requestCode(owner.email, "198.51.100.2");
    expect(await requestCode(owner.email, "203.0.113.9")).toBe(code);
    expect(await t.db.select().from(magicCodes).where(eq(magicCodes.email, owner.email))).toHaveLength(1);
    expect(sessionFrom(await signInWithCode(owner.email, code, "198.51.100.2"))).toBeTruthy();
  });

  it("a squatter's verify-email requests and guesses do not invalidate the owner's sign-in code", async () => {
    // The squatter signed up with a password on the owner's address (unproven) and is signed in.
    const squatter = await createUser(t.db, { isEmailVerified: false });
    const email = squatter.email;
    const code = await requestCode(email, "198.51.100.3");
    const asSquatter = (url: string, payload: Record<string, unknown> = {}) =>
      t.app.inject({
        method: "POST",
        url,
        payload,
        remoteAddress: "203.0.113.30",
        headers: { origin: ORIGIN, cookie: `session-id=${squatter.token}` },
      });
    for (let i = 0; i < 3; i++) {
      const before = smtp.inbox.length;
      const sent = await asSquatter("/auth/verify-email/send/");
      expect(sent.json()).toMatchObject({ sent: true, is_email_verified: false });
      // The mail goes to the owner's mailbox, with the owner's code in it.
      expect(await codeInNextMail(email, before)).toBe(code);
    }
    for (let i = 1; i <= 3; i++) {
      expect((await asSquatter("/auth/verify-email/", { code: wrongCode(code, i) })).json().error_code).toBe(
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      );
    }
    const res = await signInWithCode(email, code, "198.51.100.3");
    expect(res.headers.location).toBe("/");
    // The owner's code sign-in proved the address: the squatter's password and session are gone.
    expect(await reloadUser(t.db, squatter.id)).toMatchObject({ isEmailVerified: true, passwordHash: null });
    expect((await asSquatter("/auth/verify-email/send/")).statusCode).toBe(401);
  });
});

describe("guessing stays bounded", () => {
  it(`past ${QUEUE_AFTER} failures at an address, repeat guessers take turns a gap apart; first guesses and the owner are not held`, async () => {
    const owner = await createUser(t.db, { passwordHash: null, isPasswordAutoset: true });
    const code = await requestCode(owner.email, "198.51.100.4");
    const attackers = Array.from({ length: QUEUE_AFTER }, (_, i) => `203.0.113.${100 + i}`);
    // One first guess from each: compared (and wrong). The address has had its share now.
    for (const [i, ip] of attackers.entries()) {
      expect(errorCode(await signInWithCode(owner.email, wrongCode(code, i + 1), ip))).toBe(
        AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      );
    }
    // Their second guesses queue for the address: the first takes the turn and is compared; the
    // others would have to wait a minute, so they are refused uncompared (maxHoldMs is 0 here).
    const second = [];
    for (const [i, ip] of attackers.entries()) {
      second.push(errorCode(await signInWithCode(owner.email, wrongCode(code, 10 + i), ip)));
    }
    expect(second).toEqual([
      AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
      ...attackers.slice(1).map(() => AUTH_ERROR.RATE_LIMIT_EXCEEDED),
    ]);
    // Still refused while the turn is taken, and a refused guess takes none of the source's tries.
    const refusedIp = attackers[1] ?? "";
    for (let i = 0; i < 3; i++) {
      expect(errorCode(await signInWithCode(owner.email, wrongCode(code, 20 + i), refusedIp))).toBe(
        AUTH_ERROR.RATE_LIMIT_EXCEEDED,
      );
    }
    expect(await t.app.ctx.authLimiter.codeTriesUsedUp(owner.email, refusedIp)).toBe(false);
    // A newcomer's first guess is compared without waiting — and so is the owner's.
    expect(errorCode(await signInWithCode(owner.email, wrongCode(code, 30), "203.0.113.200"))).toBe(
      AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN,
    );
    const res = await signInWithCode(owner.email, code, "198.51.100.4");
    expect(res.headers.location).toBe("/");
    expect(sessionFrom(res)).toBeTruthy();
  });
});
