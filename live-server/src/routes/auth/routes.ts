/**
 * Sign-in for everyone who is not the instance admin (calls-errors-sync §4, §7, §8):
 * - JSON calls the sign-in screens make first: CSRF token, email-check, magic-generate,
 *   forgot/reset password, and set/change password for a signed-in user.
 * - HTML form posts that end a flow with a 302: sign-up, sign-in, magic sign-up / sign-in,
 *   sign-out. Errors go back to the form's page with the catalogue code; success goes to the
 *   validated next_path.
 * Every POST counts against the per-source auth rate limit, except sign-out, which checks no
 * secret and must never be refused to someone who wants to leave. Calls that check no secret are
 * refused past it (5900); a password, code or reset-token check is never refused for what others
 * did — past the source's budget it waits its turn (auth/rate-limit.ts), so a right password or
 * code always gets in. Mails count per address. Code guesses count per address and source (three
 * tries each) and per address (a queue), never on the code: nobody else can burn a mailed code,
 * and asking for another does not replace it (magic-code.ts).
 *
 * E-mail proof (auth/email-proof.ts): a code sign-in / sign-up, the verification code
 * (/auth/verify-email/), a reset link and an invitation link's token prove the address; a
 * password sign-up does not. With sign-up switched off only an invited address may create an
 * account, and only with proof: a code, or (for a password sign-up) the invitation link's token
 * posted as `invitation_id` + `invitation_token`.
 */
import { AUTH_ERROR, type AuthErrorCode, isAcceptablePassword, isValidEmail, normalizeEmail } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hashPassword, verifyPassword } from "../../auth/crypto.ts";
import { hasValidCsrf, issueCsrfToken } from "../../auth/csrf.ts";
import { proveAddress } from "../../auth/email-proof.ts";
import { field, redirectAfterSignIn, redirectWithAuthError } from "../../auth/redirect.ts";
import { clearSessionCookie, revokeSession, revokeUserSessions, SESSION_COOKIE } from "../../auth/sessions.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { forbidden } from "../../http/errors.ts";
import { requireUser } from "../../policies/access.ts";
import { presentMe } from "../../presenters/user.ts";
import { pendingInvitationByToken } from "../workspaces/service.ts";
import { AuthFailure, refuse, sendAuthError } from "./failure.ts";
import { codeToMail, consumeMagicCode, type MagicCodeCheck, minutesLeft } from "./magic-code.ts";
import {
  authSettings,
  createUserWithProfile,
  findPasswordToken,
  findUserByEmail,
  hasPendingInvitation,
  issuePasswordToken,
  markPasswordTokenUsed,
  startSession,
  type UserRow,
} from "./service.ts";

const SIGN_IN_PAGE = "/";
const SIGN_UP_PAGE = "/sign-up/";

type Settings = Awaited<ReturnType<typeof authSettings>>;

/** The e-mail of a JSON body: 5010 when absent or blank, 5005 when not an address. */
function jsonEmail(body: unknown): string {
  const raw = body && typeof body === "object" ? (body as Record<string, unknown>).email : undefined;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
    refuse(AUTH_ERROR.EMAIL_REQUIRED);
  }
  if (!isValidEmail(raw)) refuse(AUTH_ERROR.INVALID_EMAIL);
  return normalizeEmail(raw);
}

/** A string field of a JSON body, or "" (absent, null or not a string). */
function jsonString(body: unknown, name: string): string {
  return field(body, name) ?? "";
}

/**
 * Sign-up is open, or this address was invited to a workspace. Only for flows that prove the
 * address themselves (a code); a password sign-up on an invite-only instance also needs the
 * invitation link (`invitationProof`).
 */
async function maySignUp(app: FastifyInstance, settings: Settings, email: string): Promise<boolean> {
  return settings.enable_signup || (await hasPendingInvitation(app.ctx.db, email));
}

/**
 * The pending invitation to `email` whose link the body carries (`invitation_id` and
 * `invitation_token`, from the mailed link): the link was mailed to the address, so holding it
 * proves the address. Undefined when absent, wrong, answered or addressed to someone else.
 */
async function invitationProof(app: FastifyInstance, body: unknown, email: string) {
  const id = field(body, "invitation_id");
  const token = field(body, "invitation_token");
  if (!id || !token) return undefined;
  const row = await pendingInvitationByToken(app.ctx.db, id, token);
  return row && row.invitation.email.toLowerCase() === email ? row : undefined;
}

/** Refusals that mean a wrong password or token: counted per source and per account by `credentialCheck`. */
const CREDENTIAL_FAILURES: ReadonlySet<number> = new Set([
  AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN,
  AUTH_ERROR.INVALID_PASSWORD_TOKEN,
  AUTH_ERROR.INCORRECT_OLD_PASSWORD,
]);

/** Wait for the source's turn before a credential check, or refuse a flood with 5900. */
async function holdSource(app: FastifyInstance, ip: string): Promise<void> {
  if (!(await app.ctx.authLimiter.holdSource(ip))) refuse(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
}

/**
 * Check a password or token for `account` (an e-mail; none for a reset token): past its budget
 * the source waits its turn, and a locked account waits `lockDelayMs`; then the check runs as
 * usual, so the owner's right secret still works. A wrong one counts against the source and the
 * account.
 */
export async function credentialCheck<T>(
  app: FastifyInstance,
  ip: string,
  account: string | undefined,
  check: () => Promise<T>,
): Promise<T> {
  const limiter = app.ctx.authLimiter;
  await holdSource(app, ip);
  await limiter.holdIfLocked(account);
  try {
    const result = await check();
    await limiter.recordSuccess(account);
    return result;
  } catch (error) {
    if (error instanceof AuthFailure && CREDENTIAL_FAILURES.has(error.code)) await limiter.recordFailure(ip, account);
    throw error;
  }
}

/**
 * Check a mailed code for `email` from `ip` and use it up, or refuse. The source's try is taken
 * before comparing; with none left it is 5100/5102 for this source only. A source that guessed
 * wrong before waits for the address's turn once the address has had its share of failures;
 * its first guess never does (auth/rate-limit.ts).
 */
async function checkMailedCode(
  app: FastifyInstance,
  ip: string,
  email: string,
  code: string,
  flow: "sign-in" | "sign-up",
): Promise<void> {
  const limiter = app.ctx.authLimiter;
  await holdSource(app, ip);
  const guess = await limiter.startCodeGuess(email, ip);
  if (guess === "exhausted") {
    await limiter.recordFailure(ip, undefined);
    refuseMagicCode("exhausted", flow);
  }
  if (!guess.clean && !(await limiter.holdCodeGuess(email))) {
    await limiter.returnCodeTry(email, ip);
    refuse(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
  }
  const check = await consumeMagicCode(app.ctx.db, email, code.slice(0, 32), app.ctx.config.secretKey);
  if (check === "ok") return limiter.recordCodeSuccess(email, ip);
  if (check === "invalid") await limiter.recordCodeFailure(email, ip);
  refuseMagicCode(check, flow);
}

/**
 * The code to mail to `email` for a request from `ip` (magic-code.ts: the same code again while
 * it is good, never a replacement). A requester whose own tries are used up gets a new code
 * when the address is under its cap, and its tries start again.
 */
async function mailableCode(app: FastifyInstance, ip: string, email: string) {
  const limiter = app.ctx.authLimiter;
  const usedUp = await limiter.codeTriesUsedUp(email, ip);
  const mailed = await codeToMail(app.ctx.db, email, app.ctx.config.secretKey, { wantNew: usedUp });
  if (usedUp && mailed.fresh) await limiter.restartCodeTries(email, ip);
  return mailed;
}

/** Count one mail to `email` against its per-address limit, or refuse with 5900. */
async function limitMail(app: FastifyInstance, email: string): Promise<void> {
  if (!(await app.ctx.authLimiter.allowMail(email))) refuse(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
}

function refuseMagicCode(check: Exclude<MagicCodeCheck, "ok"> | "exhausted", flow: "sign-in" | "sign-up"): never {
  const codes: Record<typeof check, [AuthErrorCode, AuthErrorCode]> = {
    invalid: [AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_IN, AUTH_ERROR.INVALID_MAGIC_CODE_SIGN_UP],
    expired: [AUTH_ERROR.EXPIRED_MAGIC_CODE_SIGN_IN, AUTH_ERROR.EXPIRED_MAGIC_CODE_SIGN_UP],
    exhausted: [AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN, AUTH_ERROR.EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_UP],
  };
  refuse(codes[check][flow === "sign-in" ? 0 : 1]);
}

type JsonHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const CHECKS_SECRET = { checksSecret: true };

/**
 * A JSON auth call: per-source rate limit first (a wall, unless the call checks a secret:
 * `checksSecret` calls are counted and held by `credentialCheck` instead), then the handler;
 * AuthFailure becomes the catalogue answer.
 */
function jsonRoute(app: FastifyInstance, handle: JsonHandler, options: { checksSecret?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await countRequest(app, request.ip, options.checksSecret ?? false);
      return await handle(request, reply);
    } catch (error) {
      if (error instanceof AuthFailure) return sendAuthError(reply, error.code);
      throw error;
    }
  };
}

/** Count a request against its source: a wall for calls that check no secret, a count only otherwise. */
async function countRequest(app: FastifyInstance, ip: string, checksSecret: boolean): Promise<void> {
  const limiter = app.ctx.authLimiter;
  if (checksSecret) await limiter.noteRequest(ip);
  else if (!(await limiter.allowRequest(ip))) refuse(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
}

type FormFlow = {
  /** Where errors are sent back to. */
  page: string;
  /** The code for a post without a valid CSRF pair: the flow's "authentication failed". */
  csrfFailure: AuthErrorCode;
  /** The flow checks a password or code: never refused for its source's traffic, only held. */
  checksSecret: boolean;
};

type FormInput = { email: string; body: unknown; settings: Settings; request: FastifyRequest };

/**
 * An HTML form that ends in a signed-in user: rate limit, CSRF pair, instance set up, then
 * the flow's own checks (`handle` returns the user to sign in, or throws AuthFailure).
 */
function formRoute(
  app: FastifyInstance,
  flow: FormFlow,
  handle: (input: FormInput) => Promise<{ user: UserRow; changes?: { isEmailVerified: boolean } }>,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body;
    const email = normalizeEmail(field(body, "email") ?? "");
    const nextPath = field(body, "next_path");
    try {
      await countRequest(app, request.ip, flow.checksSecret);
      if (!hasValidCsrf(request, field(body, "csrfmiddlewaretoken"))) refuse(flow.csrfFailure);
      const settings = await authSettings(app.ctx.db);
      if (!settings.ready) refuse(AUTH_ERROR.INSTANCE_NOT_CONFIGURED);
      const { user, changes } = await handle({ email, body, settings, request });
      await startSession(app, request, reply, user, changes);
      return redirectAfterSignIn(reply, nextPath);
    } catch (error) {
      if (!(error instanceof AuthFailure)) throw error;
      // The e-mail goes back to pre-fill the form, unless it is too long to be one.
      return redirectWithAuthError(reply, flow.page, error.code, {
        email: email.length <= 254 ? email : undefined,
        nextPath,
      });
    }
  };
}

/** Create the account, turning a lost race with a concurrent sign-up into "already exists". */
async function createAccount(app: FastifyInstance, input: Parameters<typeof createUserWithProfile>[1]) {
  try {
    return await createUserWithProfile(app.ctx.db, input);
  } catch (error) {
    if (isUniqueViolation(error)) refuse(AUTH_ERROR.USER_ALREADY_EXIST);
    throw error;
  }
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { db, mailer, config } = app.ctx;
  const publicRoute = { config: { public: true } };

  app.get("/auth/get-csrf-token/", publicRoute, async (request, reply) => ({
    csrf_token: issueCsrfToken(request, reply, app.secureCookies),
  }));

  /**
   * Which step the sign-in screen shows next, as the reference product decides it: a code
   * (MAGIC_CODE) when mail is configured and code sign-in is on, for a new address (it signs up
   * by proving the address) and for an account without a password of its own
   * (is_password_autoset); CREDENTIAL otherwise — an account with a chosen password, or no mail
   * to send a code with (that screen offers the code anyway when code sign-in is on, the code
   * going to the server log).
   * Where a password cannot get the person in, the code step is answered whenever code sign-in
   * is on, mail or not: password sign-in switched off, or a new address on an invite-only
   * instance without its invitation link (auth/email-proof.ts: a password proves nothing there).
   */
  app.post(
    "/auth/email-check/",
    publicRoute,
    jsonRoute(app, async (request) => {
      const settings = await authSettings(db);
      if (!settings.ready) refuse(AUTH_ERROR.INSTANCE_NOT_CONFIGURED);
      const email = jsonEmail(request.body);
      const user = await findUserByEmail(db, email);
      const codes = settings.is_magic_login_enabled;
      const mailedCodes = codes && (await mailer.isConfigured());
      const answer = (existing: boolean, code: boolean) => ({ existing, status: code ? "MAGIC_CODE" : "CREDENTIAL" });
      if (user) {
        if (!user.isActive) refuse(AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
        const passwordUseless = !settings.is_email_password_enabled;
        return answer(true, (mailedCodes && user.isPasswordAutoset) || (codes && passwordUseless));
      }
      if (!(await maySignUp(app, settings, email))) refuse(AUTH_ERROR.SIGNUP_DISABLED);
      // Invite-only: a password sign-up needs the invitation link (it proves the address).
      const passwordUseless =
        !settings.is_email_password_enabled ||
        (!settings.enable_signup && !(await invitationProof(app, request.body, email)));
      return answer(false, mailedCodes || (codes && passwordUseless));
    }),
  );

  app.post(
    "/auth/magic-generate/",
    publicRoute,
    jsonRoute(app, async (request) => {
      const settings = await authSettings(db);
      if (!settings.ready) refuse(AUTH_ERROR.INSTANCE_NOT_CONFIGURED);
      const email = jsonEmail(request.body);
      if (!settings.is_magic_login_enabled) refuse(AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED);
      const user = await findUserByEmail(db, email);
      if (user && !user.isActive) refuse(AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
      // No code for an address that could not use it: magic sign-up would refuse with 5015.
      if (!user && !(await maySignUp(app, settings, email))) refuse(AUTH_ERROR.SIGNUP_DISABLED);
      await limitMail(app, email);
      const { code, expiresAt } = await mailableCode(app, request.ip, email);
      await mailer.send({
        to: email,
        subject: `Your ${settings.instanceName} sign-in code`,
        text: [
          `Your sign-in code is ${code}`,
          "",
          `It is valid for ${minutesLeft(expiresAt)} minutes and can be used once.`,
          "If you did not try to sign in, you can ignore this e-mail.",
        ].join("\n"),
      });
      return { key: email };
    }),
  );

  app.post(
    "/auth/forgot-password/",
    publicRoute,
    jsonRoute(app, async (request) => {
      const email = jsonEmail(request.body);
      if (!(await mailer.isConfigured())) refuse(AUTH_ERROR.SMTP_NOT_CONFIGURED);
      const user = await findUserByEmail(db, email);
      if (!user) refuse(AUTH_ERROR.USER_DOES_NOT_EXIST);
      if (!user.isActive) refuse(AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
      await limitMail(app, user.email);
      const token = await issuePasswordToken(db, user.id);
      const params = new URLSearchParams({ uidb64: user.id, token, email: user.email });
      const { instanceName } = await authSettings(db);
      await mailer.send({
        to: user.email,
        subject: `Reset your ${instanceName} password`,
        text: [
          "Someone asked to reset the password of your account. To choose a new password, open:",
          "",
          `${config.appBaseUrl}/accounts/reset-password/?${params.toString()}`,
          "",
          "The link is valid for one hour and can be used once.",
          "If you did not ask for it, you can ignore this e-mail; your password stays as it is.",
        ].join("\n"),
      });
      return { message: "Check your email to reset your password." };
    }),
  );

  app.post(
    "/auth/reset-password/:uid/:token/",
    publicRoute,
    jsonRoute(
      app,
      async (request) => {
        const { uid, token } = request.params as { uid: string; token: string };
        const found = await credentialCheck(app, request.ip, undefined, async () => {
          const row = await findPasswordToken(db, uid, token);
          if (row === "invalid") refuse(AUTH_ERROR.INVALID_PASSWORD_TOKEN);
          if (row === "expired") refuse(AUTH_ERROR.EXPIRED_PASSWORD_TOKEN);
          return row;
        });
        const password = jsonString(request.body, "password");
        // A bad password leaves the token alive, so the user can try again from the same link.
        if (!isAcceptablePassword(password)) refuse(AUTH_ERROR.INVALID_NEW_PASSWORD);
        const passwordHash = await hashPassword(password);
        await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
          if (!(await markPasswordTokenUsed(tx, found.id))) refuse(AUTH_ERROR.INVALID_PASSWORD_TOKEN);
          // The link was mailed to the address, so following it proves the address too.
          await tx
            .update(users)
            .set({ passwordHash, isPasswordAutoset: false, isEmailVerified: true })
            .where(eq(users.id, found.userId));
          // Whoever knew the old password is signed out everywhere (open live sockets too).
          await revokeUserSessions(tx, emit, found.userId);
        });
        return { message: "Password reset successfully." };
      },
      CHECKS_SECRET,
    ),
  );

  app.post(
    "/auth/set-password/",
    publicRoute,
    jsonRoute(app, async (request) => {
      const user = requireUser(request);
      if (!user.isPasswordAutoset) refuse(AUTH_ERROR.PASSWORD_ALREADY_SET);
      const password = jsonString(request.body, "password");
      if (!isAcceptablePassword(password)) refuse(AUTH_ERROR.INVALID_NEW_PASSWORD);
      const [updated] = await db
        .update(users)
        .set({ passwordHash: await hashPassword(password), isPasswordAutoset: false })
        .where(eq(users.id, user.id))
        .returning();
      if (!updated) throw new Error("user vanished");
      return presentMe(updated);
    }),
  );

  app.post(
    "/auth/change-password/",
    publicRoute,
    jsonRoute(
      app,
      async (request) => {
        const user = requireUser(request);
        const oldPassword = jsonString(request.body, "old_password");
        const newPassword = jsonString(request.body, "new_password");
        if (!oldPassword || !newPassword) refuse(AUTH_ERROR.MISSING_PASSWORD);
        await credentialCheck(app, request.ip, user.email, async () => {
          if (!(await verifyPassword(oldPassword, user.passwordHash))) refuse(AUTH_ERROR.INCORRECT_OLD_PASSWORD);
        });
        if (!isAcceptablePassword(newPassword)) refuse(AUTH_ERROR.INVALID_NEW_PASSWORD);
        const passwordHash = await hashPassword(newPassword);
        await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
          await tx.update(users).set({ passwordHash, isPasswordAutoset: false }).where(eq(users.id, user.id));
          // Other devices must sign in again with the new password; this one stays signed in.
          await revokeUserSessions(tx, emit, user.id, { except: request.sessionToken });
        });
        return { message: "Password changed successfully." };
      },
      CHECKS_SECRET,
    ),
  );

  app.post(
    "/auth/sign-up/",
    publicRoute,
    formRoute(
      app,
      { page: SIGN_UP_PAGE, csrfFailure: AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_UP, checksSecret: false },
      async ({ email, body, settings }) => {
        const password = field(body, "password") ?? "";
        if (!email || !password) refuse(AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_UP);
        if (!isValidEmail(email)) refuse(AUTH_ERROR.INVALID_EMAIL_SIGN_UP);
        if (!settings.is_email_password_enabled) refuse(AUTH_ERROR.PASSWORD_LOGIN_DISABLED);
        if (await findUserByEmail(db, email)) refuse(AUTH_ERROR.USER_ALREADY_EXIST);
        // A password proves nothing about the address; the invitation link mailed to it does.
        const invited = await invitationProof(app, body, email);
        // Invite-only instances stay invite-only: no account without proof of an invited address.
        if (!settings.enable_signup && !invited) refuse(AUTH_ERROR.SIGNUP_DISABLED);
        if (!isAcceptablePassword(password)) refuse(AUTH_ERROR.INVALID_PASSWORD);
        const user = await createAccount(app, {
          email,
          passwordHash: await hashPassword(password),
          isPasswordAutoset: false,
          isEmailVerified: Boolean(invited),
        });
        return { user };
      },
    ),
  );

  app.post(
    "/auth/sign-in/",
    publicRoute,
    formRoute(
      app,
      { page: SIGN_IN_PAGE, csrfFailure: AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN, checksSecret: true },
      async ({ email, body, settings, request }) => {
        const password = field(body, "password") ?? "";
        if (!email || !password) refuse(AUTH_ERROR.REQUIRED_EMAIL_PASSWORD_SIGN_IN);
        if (!isValidEmail(email)) refuse(AUTH_ERROR.INVALID_EMAIL_SIGN_IN);
        if (!settings.is_email_password_enabled) refuse(AUTH_ERROR.PASSWORD_LOGIN_DISABLED);
        const user = await findUserByEmail(db, email);
        if (!user) refuse(AUTH_ERROR.USER_DOES_NOT_EXIST);
        if (!user.isActive) refuse(AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
        // A user without a password (code sign-up) fails like a wrong password: verifyPassword(null) is false.
        await credentialCheck(app, request.ip, email, async () => {
          if (!(await verifyPassword(password, user.passwordHash))) refuse(AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN);
        });
        return { user };
      },
    ),
  );

  app.post(
    "/auth/magic-sign-up/",
    publicRoute,
    formRoute(
      app,
      { page: SIGN_UP_PAGE, csrfFailure: AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_UP, checksSecret: true },
      async ({ email, body, settings, request }) => {
        const code = field(body, "code") ?? "";
        if (!email || !code.trim()) refuse(AUTH_ERROR.MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED);
        if (!isValidEmail(email)) refuse(AUTH_ERROR.INVALID_EMAIL_MAGIC_SIGN_UP);
        if (!settings.is_magic_login_enabled) refuse(AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED);
        if (await findUserByEmail(db, email)) refuse(AUTH_ERROR.USER_ALREADY_EXIST);
        if (!(await maySignUp(app, settings, email))) refuse(AUTH_ERROR.SIGNUP_DISABLED);
        await checkMailedCode(app, request.ip, email, code, "sign-up");
        // The code proved the address; there is no password until the user sets one.
        const user = await createAccount(app, {
          email,
          passwordHash: null,
          isPasswordAutoset: true,
          isEmailVerified: true,
        });
        return { user };
      },
    ),
  );

  app.post(
    "/auth/magic-sign-in/",
    publicRoute,
    formRoute(
      app,
      { page: SIGN_IN_PAGE, csrfFailure: AUTH_ERROR.AUTHENTICATION_FAILED_SIGN_IN, checksSecret: true },
      async ({ email, body, settings, request }) => {
        const code = field(body, "code") ?? "";
        if (!email || !code.trim()) refuse(AUTH_ERROR.MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED);
        if (!isValidEmail(email)) refuse(AUTH_ERROR.INVALID_EMAIL_MAGIC_SIGN_IN);
        if (!settings.is_magic_login_enabled) refuse(AUTH_ERROR.MAGIC_LINK_LOGIN_DISABLED);
        const user = await findUserByEmail(db, email);
        if (!user) refuse(AUTH_ERROR.USER_DOES_NOT_EXIST);
        if (!user.isActive) refuse(AUTH_ERROR.USER_ACCOUNT_DEACTIVATED);
        await checkMailedCode(app, request.ip, email, code, "sign-in");
        // The code proved the address. If it had not been proven before, a password set until
        // now may be an intruder's (pre-hijack): it is cleared and every session ends before the
        // owner's new one starts.
        const proven = await transactionWithEvents(db, app.ctx.events, eventOrigin(request), (tx, emit) =>
          proveAddress(tx, emit, user, { kind: "sign-in" }),
        );
        return { user: proven };
      },
    ),
  );

  /**
   * "Verify your address" for a signed-in account whose address is not proven (a password
   * sign-up): a six-digit code mailed to it (to the server log when SMTP is not set), like the
   * sign-in codes and from the same store — so a squatter's request mails the owner's live code
   * again rather than replacing it — valid ten minutes, three wrong tries per source.
   */
  app.post(
    "/auth/verify-email/send/",
    publicRoute,
    jsonRoute(app, async (request) => {
      const user = requireUser(request);
      if (user.isEmailVerified) return { sent: false, email: user.email, is_email_verified: true };
      await limitMail(app, user.email);
      const { code, expiresAt } = await mailableCode(app, request.ip, user.email);
      const { instanceName } = await authSettings(db);
      await mailer.send({
        to: user.email,
        subject: `Your ${instanceName} verification code`,
        text: [
          `Your verification code is ${code}`,
          "",
          `Enter it to confirm that this e-mail address is yours. It is valid for ${minutesLeft(expiresAt)} minutes and can be used once.`,
          "If you did not ask for it, you can ignore this e-mail.",
        ].join("\n"),
      });
      return { sent: true, email: user.email, is_email_verified: false };
    }),
  );

  /**
   * Prove the signed-in account's address with the mailed code. The prover is signed in with
   * the account's password, so the password stays; every other session ends (auth/email-proof.ts).
   * Answers the account as GET /api/users/me/ does.
   */
  app.post(
    "/auth/verify-email/",
    publicRoute,
    jsonRoute(
      app,
      async (request) => {
        const user = requireUser(request);
        if (user.isEmailVerified) return presentMe(user);
        const code = jsonString(request.body, "code");
        if (!code.trim()) refuse(AUTH_ERROR.MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED);
        await checkMailedCode(app, request.ip, user.email, code, "sign-in");
        const proven = await transactionWithEvents(db, app.ctx.events, eventOrigin(request), (tx, emit) =>
          proveAddress(tx, emit, user, { kind: "session", sessionToken: request.sessionToken }),
        );
        return presentMe(proven);
      },
      CHECKS_SECRET,
    ),
  );

  app.post("/auth/sign-out/", publicRoute, async (request, reply) => {
    // A forged or stale form cannot sign anyone out; the client shows "Failed to sign out".
    if (!hasValidCsrf(request, field(request.body, "csrfmiddlewaretoken"))) {
      throw forbidden("CSRF token is missing or invalid.");
    }
    // The raw cookie, not request.sessionToken: an expired session's row goes too.
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), (tx, emit) =>
      revokeSession(tx, emit, request.cookies[SESSION_COOKIE]),
    );
    clearSessionCookie(reply, app.secureCookies);
    return redirectAfterSignIn(reply, field(request.body, "next_path"));
  });
}
