import { AUTH_ERROR } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  postForm,
  redirectQuery,
  sessionFrom,
  type TestApp,
} from "../../../test/harness.ts";
import { instanceAdmins } from "../../db/schema.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const adminForm = {
  email: "root@example.com",
  password: "a-very-long-admin-password",
  first_name: "Ada",
  last_name: "Admin",
  company_name: "Acme",
};

describe("instance set-up", () => {
  it("reports an instance that is not set up yet", async () => {
    const res = await client(t.app).get("/api/instances/");
    expect(res.statusCode).toBe(200);
    expect(res.json().instance.is_setup_done).toBe(false);
    expect(res.json().config).toMatchObject({
      enable_signup: true,
      is_magic_login_enabled: true,
      is_smtp_configured: false,
    });
  });

  it("refuses an admin sign-up with missing fields, a bad e-mail or a short password, storing nothing", async () => {
    const cases: [Record<string, string>, number][] = [
      [{ ...adminForm, first_name: "" }, AUTH_ERROR.REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME],
      [{ ...adminForm, email: "not-an-email" }, AUTH_ERROR.INVALID_ADMIN_EMAIL],
      [{ ...adminForm, password: "short" }, AUTH_ERROR.INVALID_ADMIN_PASSWORD],
    ];
    for (const [form, code] of cases) {
      const res = await postForm(t.app, "/api/instances/admins/sign-up/", form);
      expect(res.statusCode).toBe(302);
      expect(redirectQuery(res)).toMatchObject({ path: "/god-mode/setup/", query: { error_code: String(code) } });
    }
    expect(await t.db.select().from(instanceAdmins)).toHaveLength(0);
  });

  it("creates the first admin, signs them in and marks the instance set up", async () => {
    const res = await postForm(t.app, "/api/instances/admins/sign-up/", adminForm);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/god-mode/general/");
    const token = sessionFrom(res);
    expect(token).toBeTruthy();
    const me = await client(t.app, { token: token as string }).get("/api/instances/admins/me/");
    expect(me.json()).toMatchObject({ email: "root@example.com", first_name: "Ada" });
    const info = await client(t.app).get("/api/instances/");
    expect(info.json().instance).toMatchObject({ is_setup_done: true, instance_name: "Acme" });
  });

  it("refuses a second admin sign-up with 5150", async () => {
    const res = await postForm(t.app, "/api/instances/admins/sign-up/", { ...adminForm, email: "other@example.com" });
    expect(redirectQuery(res).query.error_code).toBe(String(AUTH_ERROR.ADMIN_ALREADY_EXIST));
  });

  it("signs the admin in, and names each failure", async () => {
    const wrong = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: "root@example.com",
      password: "nope-nope-nope",
    });
    expect(redirectQuery(wrong).query.error_code).toBe(String(AUTH_ERROR.ADMIN_AUTHENTICATION_FAILED));
    const unknown = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: "who@example.com",
      password: "whatever-long",
    });
    expect(redirectQuery(unknown).query.error_code).toBe(String(AUTH_ERROR.ADMIN_USER_DOES_NOT_EXIST));
    const missing = await postForm(t.app, "/api/instances/admins/sign-in/", { email: "", password: "" });
    expect(redirectQuery(missing).query.error_code).toBe(String(AUTH_ERROR.REQUIRED_ADMIN_EMAIL_PASSWORD));
    const ok = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: "root@example.com",
      password: adminForm.password,
    });
    expect(ok.headers.location).toBe("/god-mode/general/");
    expect(sessionFrom(ok)).toBeTruthy();
  });

  it("lets the admin in with the right password after someone else's wrong ones: delayed, not refused", async () => {
    const limiter = t.app.ctx.authLimiter;
    for (let i = 0; i < 10; i++) {
      const wrong = await postForm(t.app, "/api/instances/admins/sign-in/", {
        email: adminForm.email,
        password: `wrong-guess-${i}`,
      });
      expect(redirectQuery(wrong).query.error_code).toBe(String(AUTH_ERROR.ADMIN_AUTHENTICATION_FAILED));
    }
    expect(await limiter.isLocked(adminForm.email)).toBe(true);
    const started = performance.now();
    const ok = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: adminForm.email,
      password: adminForm.password,
    });
    expect(ok.headers.location).toBe("/god-mode/general/");
    expect(performance.now() - started).toBeGreaterThanOrEqual(limiter.lockDelayMs - 5);
    expect(await limiter.isLocked(adminForm.email)).toBe(false);
  });

  it("never copies an unbounded e-mail into Location: a 10 kB address gets a normal 302 with a short header", async () => {
    const huge = `${"a".repeat(10_000)}@example.com`;
    for (const [url, fields] of [
      ["/api/instances/admins/sign-in/", { email: huge, password: "whatever-long" }],
      ["/api/instances/admins/sign-up/", { ...adminForm, email: huge }],
      ["/api/instances/admins/sign-in/", { email: `${huge}\r\nSet-Cookie: x=1`, password: "whatever-long" }],
    ] as const) {
      const res = await postForm(t.app, url, fields);
      expect(res.statusCode).toBe(302);
      const location = String(res.headers.location);
      expect(location.length).toBeLessThan(600);
      expect(location).not.toMatch(/[\r\n]/);
      expect(redirectQuery(res).query.email).toBeUndefined();
      expect(redirectQuery(res).query.error_code).toMatch(/^51\d\d$/);
    }
    // A normal address still comes back to pre-fill the form, encoded.
    const normal = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: "who+tag@example.com",
      password: "whatever-long",
    });
    expect(redirectQuery(normal).query.email).toBe("who+tag@example.com");
    expect(String(normal.headers.location)).toContain("email=who%2Btag%40example.com");
  });
});

describe("instance settings", () => {
  it("are refused to non-admins (403) and to anonymous callers (401)", async () => {
    const user = await createUser(t.db);
    expect((await client(t.app, user).get("/api/instances/configurations/")).statusCode).toBe(403);
    expect((await client(t.app).get("/api/instances/configurations/")).statusCode).toBe(401);
    expect((await client(t.app, user).patch("/api/instances/", { instance_name: "Hacked" })).statusCode).toBe(403);
  });

  it("let the admin switch sign-up off and keep at least one sign-in method", async () => {
    const res = await postForm(t.app, "/api/instances/admins/sign-in/", {
      email: "root@example.com",
      password: adminForm.password,
    });
    const admin = client(t.app, { token: sessionFrom(res) as string });
    const patched = await admin.patch("/api/instances/configurations/", {
      enable_signup: false,
      smtp_host: "mail.example.com",
      smtp_password: "s3cret",
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      enable_signup: false,
      smtp_host: "mail.example.com",
      smtp_password_set: true,
    });
    expect(patched.json().smtp_password).toBeUndefined();
    const bad = await admin.patch("/api/instances/configurations/", {
      enable_email_password: false,
      enable_magic_login: false,
    });
    expect(bad.statusCode).toBe(400);
    // Unknown keys are ignored (http/errors.ts): a misspelt one changes nothing.
    const typo = await admin.patch("/api/instances/configurations/", { enable_sign_up: true });
    expect(typo.statusCode).toBe(200);
    const after = await admin.get("/api/instances/configurations/");
    expect(after.json()).toMatchObject({
      enable_signup: false,
      is_email_password_enabled: true,
      is_magic_login_enabled: true,
    });
    expect((await admin.patch("/api/instances/", { instance_name: "" })).statusCode).toBe(400);
    expect((await admin.patch("/api/instances/", { instance_name: "Acme Work" })).json().instance_name).toBe(
      "Acme Work",
    );
  });

  it("refuses a cross-site form post", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/instances/admins/sign-in/",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      payload: "email=root%40example.com&password=x",
    });
    expect(res.statusCode).toBe(403);
  });
});
