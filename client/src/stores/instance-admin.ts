/**
 * The instance administrator's area (god-mode): who the admin is, the instance settings
 * (name, sign-up and sign-in switches, SMTP) and the admin's own sign-in, set-up and sign-out
 * forms. Changes are optimistic — applied here and to the session's public instance info
 * at once — and rolled back with a toast when the server refuses.
 */
import { toast } from "sonner";
import { api, errorMessage, fieldErrors, HTTPError } from "../lib/api";
import { type AuthError, authErrorFrom } from "../lib/auth-errors";
import { defineStore, resetAllStores } from "../lib/store";
import { type InstanceInfo, session, submitAuthForm } from "./session";

export type AdminMe = { id: string; email: string; first_name: string; last_name: string };

/** Whether the visitor may use the settings pages: decided once per visit of the area. */
export type AdminStatus = "unknown" | "loading" | "admin" | "not-admin" | "anonymous" | "error";

/** GET /api/instances/configurations/: switches (effective values) and SMTP, never its password. */
export type InstanceConfiguration = {
  enable_signup: boolean;
  is_email_password_enabled: boolean;
  is_magic_login_enabled: boolean;
  smtp_host?: string;
  smtp_port?: number;
  smtp_user?: string;
  smtp_from?: string;
  smtp_use_tls?: boolean;
  smtp_use_ssl?: boolean;
  smtp_password_set: boolean;
};

/** The switches as the PATCH takes them. */
export type AuthSwitchPatch = Partial<{
  enable_signup: boolean;
  enable_email_password: boolean;
  enable_magic_login: boolean;
}>;

export type SmtpSettings = {
  smtp_host: string;
  smtp_port: number;
  smtp_user: string;
  /** Empty: keep the stored password. */
  smtp_password: string;
  smtp_from: string;
  smtp_use_tls: boolean;
  smtp_use_ssl: boolean;
};

export const instanceAdmin = defineStore(() => ({
  status: "unknown" as AdminStatus,
  admin: null as AdminMe | null,
  configuration: null as InstanceConfiguration | null,
  configurationError: null as string | null,
}));

/**
 * Find out whether the current user is an instance admin. An anonymous visitor is not asked
 * about (the API's 401 handling would send them to the product's sign-in, not god-mode's).
 */
export async function loadAdmin(): Promise<AdminStatus> {
  if (!session.user) {
    instanceAdmin.status = "anonymous";
    instanceAdmin.admin = null;
    return instanceAdmin.status;
  }
  instanceAdmin.status = "loading";
  try {
    instanceAdmin.admin = await api.get("/api/instances/admins/me/").json<AdminMe>();
    instanceAdmin.status = "admin";
  } catch (error) {
    instanceAdmin.admin = null;
    const status = error instanceof HTTPError ? error.response.status : 0;
    instanceAdmin.status = status === 403 ? "not-admin" : status === 401 ? "anonymous" : "error";
  }
  return instanceAdmin.status;
}

export async function loadConfiguration(): Promise<void> {
  try {
    instanceAdmin.configuration = await api.get("/api/instances/configurations/").json<InstanceConfiguration>();
    instanceAdmin.configurationError = null;
  } catch (error) {
    instanceAdmin.configurationError = await errorMessage(error, "Failed to fetch instance settings");
  }
}

/** Re-read the public instance info (is_smtp_configured depends on what the server concluded). */
async function refreshInstanceInfo(): Promise<void> {
  try {
    session.instance = await api.get("/api/instances/").json<InstanceInfo>();
  } catch {
    // The settings were saved; the public info catches up on the next load.
  }
}

/** Rename the instance. Returns field errors when the server refuses the name. */
export async function updateInstanceName(name: string): Promise<Record<string, string> | null> {
  const info = session.instance;
  const previous = info?.instance.instance_name;
  if (info) info.instance.instance_name = name;
  try {
    const saved = await api
      .patch("/api/instances/", { json: { instance_name: name } })
      .json<{ instance_name: string }>();
    if (session.instance) session.instance.instance.instance_name = saved.instance_name;
    return null;
  } catch (error) {
    if (session.instance && previous !== undefined) session.instance.instance.instance_name = previous;
    toast.error(await errorMessage(error));
    return fieldErrors(error);
  }
}

const SWITCH_FIELDS = {
  enable_signup: "enable_signup",
  enable_email_password: "is_email_password_enabled",
  enable_magic_login: "is_magic_login_enabled",
} as const;

/** Flip sign-up or a sign-in method on or off. */
export async function updateAuthSwitches(patch: AuthSwitchPatch): Promise<boolean> {
  const config = instanceAdmin.configuration;
  const publicConfig = session.instance?.config;
  const before = config ? { ...config } : null;
  const publicBefore = publicConfig ? { ...publicConfig } : null;
  for (const [key, value] of Object.entries(patch) as [keyof AuthSwitchPatch, boolean][]) {
    const field = SWITCH_FIELDS[key];
    if (config) config[field] = value;
    if (publicConfig) publicConfig[field] = value;
  }
  try {
    instanceAdmin.configuration = await api
      .patch("/api/instances/configurations/", { json: patch })
      .json<InstanceConfiguration>();
    return true;
  } catch (error) {
    if (before) instanceAdmin.configuration = before;
    if (publicBefore && session.instance) session.instance.config = publicBefore;
    toast.error(await errorMessage(error));
    return false;
  }
}

/** Save the SMTP settings. Returns field errors when the server refuses them. */
export async function saveSmtpSettings(settings: SmtpSettings): Promise<Record<string, string> | null> {
  const before = instanceAdmin.configuration ? { ...instanceAdmin.configuration } : null;
  const { smtp_password, ...visible } = settings;
  if (instanceAdmin.configuration) {
    Object.assign(instanceAdmin.configuration, visible);
    if (smtp_password) instanceAdmin.configuration.smtp_password_set = true;
  }
  try {
    instanceAdmin.configuration = await api
      .patch("/api/instances/configurations/", { json: settings })
      .json<InstanceConfiguration>();
    await refreshInstanceInfo();
    return null;
  } catch (error) {
    if (before) instanceAdmin.configuration = before;
    toast.error(await errorMessage(error));
    return fieldErrors(error);
  }
}

export type TestEmailResult = { ok: boolean; message: string };

/** Send a test e-mail with the saved SMTP settings, and say what happened. */
export async function sendTestEmail(receiverEmail: string): Promise<TestEmailResult> {
  try {
    const { message } = await api
      .post("/api/instances/email-credentials-check/", { json: { receiver_email: receiverEmail }, timeout: 45_000 })
      .json<{ message: string }>();
    return { ok: true, message };
  } catch (error) {
    const fields = await fieldErrors(error);
    return { ok: false, message: fields.receiver_email ?? (await errorMessage(error)) };
  }
}

type FormResult = { ok: true } | { ok: false; error: AuthError };

async function postForm(action: string, fields: Record<string, string | undefined>): Promise<FormResult> {
  try {
    await submitAuthForm(action, fields);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: authErrorFrom(error) };
  }
}

/** Admin sign-in form post; success lands on /god-mode/general/, a refusal back on /god-mode/. */
export function adminSignIn(fields: { email: string; password: string }): Promise<FormResult> {
  return postForm("/api/instances/admins/sign-in/", fields);
}

export type AdminSetupFields = {
  first_name: string;
  last_name: string;
  company_name: string;
  email: string;
  password: string;
};

/** First-run set-up form post: creates the admin and marks the instance set up. */
export function adminSetup(fields: AdminSetupFields): Promise<FormResult> {
  return postForm("/api/instances/admins/sign-up/", fields);
}

/** Sign the admin out: the sign-out form is posted (a navigation), then every store is cleared. */
export async function adminSignOut(): Promise<boolean> {
  const result = await postForm("/api/instances/admins/sign-out/", {});
  if (!result.ok) {
    toast.error("Failed to sign out. Please try again.");
    return false;
  }
  resetAllStores();
  return true;
}
