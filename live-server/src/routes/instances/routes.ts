/**
 * Instance administration (god-mode): first-run admin set-up, admin sign-in, instance settings
 * (name, sign-up and sign-in switches, SMTP) and a send-test-mail check.
 */
import { AUTH_ERROR, isAcceptablePassword, isValidEmail, normalizeEmail } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { hashPassword, verifyPassword } from "../../auth/crypto.ts";
import { hasValidCsrf } from "../../auth/csrf.ts";
import { field, redirectWithAuthError } from "../../auth/redirect.ts";
import {
  clearSessionCookie,
  createSession,
  revokeSession,
  SESSION_COOKIE,
  setSessionCookie,
} from "../../auth/sessions.ts";
import { type InstanceConfig, instance, instanceAdmins, userProfiles, users, workspaces } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, parse } from "../../http/errors.ts";
import { requireUser } from "../../policies/access.ts";
import { authSwitches, getInstance, hasInstanceAdmin } from "./service.ts";

const SETUP_PAGE = "/god-mode/setup/";
const ADMIN_SIGN_IN_PAGE = "/god-mode/";
const ADMIN_HOME = "/god-mode/general/";

const configPatch = z
  .object({
    enable_signup: z.boolean(),
    enable_email_password: z.boolean(),
    enable_magic_login: z.boolean(),
    smtp_host: z.string().trim().max(255),
    smtp_port: z.number().int().min(1).max(65535),
    smtp_user: z.string().max(255),
    smtp_password: z.string().max(255),
    smtp_from: z.string().max(255),
    smtp_use_tls: z.boolean(),
    smtp_use_ssl: z.boolean(),
  })
  .partial();

const instancePatch = z.object({ instance_name: z.string().trim().min(1, "Instance name is required").max(80) });

async function requireInstanceAdmin(app: FastifyInstance, request: FastifyRequest) {
  const user = requireUser(request);
  const [admin] = await app.ctx.db.select().from(instanceAdmins).where(eq(instanceAdmins.userId, user.id)).limit(1);
  if (!admin) throw forbidden("Only the instance administrator can do this.");
  return user;
}

/** Config as the admin sees it: the SMTP password is never sent back, only whether it is set. */
function presentConfig(config: InstanceConfig) {
  const { smtp_password, ...rest } = config;
  return { ...authSwitches(config), ...rest, smtp_password_set: Boolean(smtp_password) };
}

export async function instanceRoutes(app: FastifyInstance): Promise<void> {
  const { db, mailer, config } = app.ctx;

  app.get("/api/instances/", { config: { public: true } }, async () => {
    const row = await getInstance(db);
    const [ws] = await db.select({ id: workspaces.id }).from(workspaces).limit(1);
    return {
      instance: {
        id: row.id,
        instance_name: row.instanceName,
        is_setup_done: row.isSetupDone,
        workspaces_exist: Boolean(ws),
        created_at: row.createdAt,
      },
      config: {
        ...authSwitches(row.config),
        is_smtp_configured: await mailer.isConfigured(),
        app_base_url: config.appBaseUrl,
      },
    };
  });

  app.post("/api/instances/admins/sign-up/", { config: { public: true } }, async (request, reply) => {
    const body = request.body;
    const email = normalizeEmail(field(body, "email") ?? "");
    const password = field(body, "password") ?? "";
    const firstName = (field(body, "first_name") ?? "").trim();
    const lastName = (field(body, "last_name") ?? "").trim();
    const companyName = (field(body, "company_name") ?? "").trim();
    const fail = (code: (typeof AUTH_ERROR)[keyof typeof AUTH_ERROR]) =>
      redirectWithAuthError(reply, SETUP_PAGE, code, { email });

    if (!(await app.ctx.authLimiter.allowIp(request.ip))) return fail(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    if (!hasValidCsrf(request, field(body, "csrfmiddlewaretoken"))) return fail(AUTH_ERROR.ADMIN_AUTHENTICATION_FAILED);
    if (await hasInstanceAdmin(db)) return fail(AUTH_ERROR.ADMIN_ALREADY_EXIST);
    if (!email || !password || !firstName) return fail(AUTH_ERROR.REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME);
    if (!isValidEmail(email)) return fail(AUTH_ERROR.INVALID_ADMIN_EMAIL);
    if (!isAcceptablePassword(password)) return fail(AUTH_ERROR.INVALID_ADMIN_PASSWORD);
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (existing) return fail(AUTH_ERROR.ADMIN_USER_ALREADY_EXIST);

    const passwordHash = await hashPassword(password);
    const token = await db.transaction(async (tx) => {
      // The admin row is the lock: a second concurrent set-up fails on the unique index below.
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          isPasswordAutoset: false,
          firstName,
          lastName,
          displayName: email.split("@")[0] ?? firstName,
          isEmailVerified: true,
          lastLoginAt: new Date(),
          lastLoginIp: request.ip,
        })
        .returning();
      if (!user) throw new Error("insert failed");
      await tx.insert(userProfiles).values({ userId: user.id });
      await tx.insert(instanceAdmins).values({ userId: user.id, createdById: user.id });
      await tx.update(instance).set({
        isSetupDone: true,
        ...(companyName ? { instanceName: companyName.slice(0, 80) } : {}),
        updatedById: user.id,
      });
      return createSession(tx, user.id, { userAgent: request.headers["user-agent"], ip: request.ip, isAdmin: true });
    });
    setSessionCookie(reply, token, app.secureCookies);
    return reply.redirect(ADMIN_HOME, 302);
  });

  app.post("/api/instances/admins/sign-in/", { config: { public: true } }, async (request, reply) => {
    const body = request.body;
    const email = normalizeEmail(field(body, "email") ?? "");
    const password = field(body, "password") ?? "";
    const fail = (code: (typeof AUTH_ERROR)[keyof typeof AUTH_ERROR]) =>
      redirectWithAuthError(reply, ADMIN_SIGN_IN_PAGE, code, { email });

    // A password check is never walled for its source's traffic (an administrator behind the
    // same NAT as people mistyping theirs must still get in): counted, and past the source's
    // budget it waits its turn; only a flood (a queue past maxHoldMs) is refused.
    const limiter = app.ctx.authLimiter;
    await limiter.noteRequest(request.ip);
    if (!(await limiter.holdSource(request.ip))) return fail(AUTH_ERROR.RATE_LIMIT_EXCEEDED);
    if (!hasValidCsrf(request, field(body, "csrfmiddlewaretoken"))) return fail(AUTH_ERROR.ADMIN_AUTHENTICATION_FAILED);
    if (!email || !password) return fail(AUTH_ERROR.REQUIRED_ADMIN_EMAIL_PASSWORD);
    if (!isValidEmail(email)) return fail(AUTH_ERROR.INVALID_ADMIN_EMAIL);
    const [row] = await db
      .select({ user: users, adminId: instanceAdmins.id })
      .from(users)
      .leftJoin(instanceAdmins, eq(instanceAdmins.userId, users.id))
      .where(eq(users.email, email))
      .limit(1);
    if (!row?.adminId) return fail(AUTH_ERROR.ADMIN_USER_DOES_NOT_EXIST);
    if (!row.user.isActive) return fail(AUTH_ERROR.ADMIN_USER_DEACTIVATED);
    // Wrong passwords count per IP (turns) and per account (a delay that never stops the owner).
    await limiter.holdIfLocked(email);
    if (!(await verifyPassword(password, row.user.passwordHash))) {
      await limiter.recordFailure(request.ip, email);
      return fail(AUTH_ERROR.ADMIN_AUTHENTICATION_FAILED);
    }
    await limiter.recordSuccess(email);

    const token = await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      // The browser's previous session (maybe another account's) ends: its live sockets close.
      await revokeSession(tx, emit, request.cookies[SESSION_COOKIE]);
      const created = await createSession(tx, row.user.id, {
        userAgent: request.headers["user-agent"],
        ip: request.ip,
        isAdmin: true,
      });
      await tx.update(users).set({ lastLoginAt: new Date(), lastLoginIp: request.ip }).where(eq(users.id, row.user.id));
      return created;
    });
    setSessionCookie(reply, token, app.secureCookies);
    return reply.redirect(ADMIN_HOME, 302);
  });

  app.post("/api/instances/admins/sign-out/", { config: { public: true } }, async (request, reply) => {
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), (tx, emit) =>
      revokeSession(tx, emit, request.sessionToken),
    );
    clearSessionCookie(reply, app.secureCookies);
    return reply.redirect(ADMIN_SIGN_IN_PAGE, 302);
  });

  app.get("/api/instances/admins/me/", async (request) => {
    const user = await requireInstanceAdmin(app, request);
    return { id: user.id, email: user.email, first_name: user.firstName, last_name: user.lastName };
  });

  app.patch("/api/instances/", async (request) => {
    const user = await requireInstanceAdmin(app, request);
    const body = parse(instancePatch, request.body);
    await db.update(instance).set({ instanceName: body.instance_name, updatedById: user.id });
    const row = await getInstance(db);
    return { id: row.id, instance_name: row.instanceName, is_setup_done: row.isSetupDone };
  });

  app.get("/api/instances/configurations/", async (request) => {
    await requireInstanceAdmin(app, request);
    return presentConfig((await getInstance(db)).config);
  });

  app.patch("/api/instances/configurations/", async (request) => {
    const user = await requireInstanceAdmin(app, request);
    const patch = parse(configPatch, request.body);
    if (patch.enable_email_password === false && patch.enable_magic_login === false) {
      throw badRequest("Keep at least one sign-in method enabled.", {
        enable_magic_login: ["At least one of password or unique-code sign-in must stay enabled."],
      });
    }
    const current = (await getInstance(db)).config;
    const next: InstanceConfig = { ...current, ...patch };
    if (next.enable_email_password === false && next.enable_magic_login === false) {
      throw badRequest("Keep at least one sign-in method enabled.");
    }
    // An empty password field in the form means "keep the stored one".
    if (patch.smtp_password === "") next.smtp_password = current.smtp_password;
    await db.update(instance).set({ config: next, updatedById: user.id });
    return presentConfig(next);
  });

  app.post("/api/instances/email-credentials-check/", async (request, reply) => {
    await requireInstanceAdmin(app, request);
    const { receiver_email } = parse(
      z.object({ receiver_email: z.email("Enter a valid e-mail address") }),
      request.body,
    );
    const smtp = await mailer.smtpSettings();
    if (!smtp)
      throw badRequest("SMTP is not configured. Save the SMTP settings first.", undefined, "SMTP_NOT_CONFIGURED");
    try {
      await mailer.sendNow({
        to: receiver_email,
        subject: "Tideline test e-mail",
        text: "This is a test e-mail from your Tideline instance. SMTP is configured correctly.",
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return reply.status(400).send({ error: `Could not send the test e-mail: ${reason}`, code: "SMTP_SEND_FAILED" });
    }
    return { message: "Test e-mail sent." };
  });
}
