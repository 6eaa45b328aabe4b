/**
 * Sign-in, sign-up and password actions for the non-authenticated screens (calls-errors-sync
 * §4, §7). The JSON calls (email-check, magic-generate, forgot/reset/set/change password)
 * return a result or throw an AuthError; the flows that end in a session are HTML form posts
 * (the server answers with a redirect), so those actions navigate away and do not return.
 *
 * The store remembers when a code was last sent to which address. It is mirrored in
 * sessionStorage because a wrong code comes back as a full page load (the form redirect), and
 * the "Resend code" countdown should not start over then.
 */

import { api } from "../lib/api";
import { type AuthError, authErrorFrom } from "../lib/auth-errors";
import { defineStore } from "../lib/store";
import { type CurrentUser, session, submitAuthForm } from "./session";

/** Seconds before "Resend code" is offered again. */
export const RESEND_CODE_SECONDS = 30;

const CODE_SENT_KEY = "tideline:code-sent";

type CodeSent = { email: string; at: number };

function readCodeSent(): CodeSent | null {
  try {
    const raw = sessionStorage.getItem(CODE_SENT_KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<CodeSent>) : null;
    return parsed && typeof parsed.email === "string" && typeof parsed.at === "number"
      ? { email: parsed.email, at: parsed.at }
      : null;
  } catch {
    return null;
  }
}

export const auth = defineStore(() => ({
  codeSent: readCodeSent(),
}));

export type EmailCheck = { existing: boolean; status: "MAGIC_CODE" | "CREDENTIAL" };

/** A JSON auth action's outcome: the value, or the error to show. */
export type AuthResult<T> = { ok: true; value: T } | { ok: false; error: AuthError };

async function attempt<T>(run: () => Promise<T>): Promise<AuthResult<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: authErrorFrom(error) };
  }
}

/**
 * The invitation link a sign-up came from (`invitation_id` + `token` of the mailed link): on an
 * invite-only instance it lets a password sign-up through, and it proves the address.
 */
export type InvitationLink = { id: string; token: string };

const invitationFields = (invitation?: InvitationLink | null) =>
  invitation ? { invitation_id: invitation.id, invitation_token: invitation.token } : {};

/** Whether the address has an account, and whether it continues with a password or a code. */
export function checkEmail(email: string, invitation?: InvitationLink | null): Promise<AuthResult<EmailCheck>> {
  return attempt(() =>
    api.post("/auth/email-check/", { json: { email, ...invitationFields(invitation) } }).json<EmailCheck>(),
  );
}

/** Send (or re-send) a six-digit sign-in code; a new code replaces the previous one. */
export async function sendMagicCode(email: string): Promise<AuthResult<null>> {
  const result = await attempt(async () => {
    await api.post("/auth/magic-generate/", { json: { email } });
    return null;
  });
  if (result.ok) {
    auth.codeSent = { email, at: Date.now() };
    try {
      sessionStorage.setItem(CODE_SENT_KEY, JSON.stringify(auth.codeSent));
    } catch {
      // Not remembered across the reload: the countdown simply starts afresh.
    }
  }
  return result;
}

/** Seconds until a code may be re-sent to `email` (0: now). */
export function resendCodeWait(email: string, now = Date.now()): number {
  const sent = auth.codeSent;
  if (!sent || sent.email !== email) return 0;
  return Math.max(0, Math.ceil((sent.at + RESEND_CODE_SECONDS * 1000 - now) / 1000));
}

export function forgotPassword(email: string): Promise<AuthResult<null>> {
  return attempt(async () => {
    await api.post("/auth/forgot-password/", { json: { email } });
    return null;
  });
}

export function resetPassword(uid: string, token: string, password: string): Promise<AuthResult<null>> {
  return attempt(async () => {
    await api.post(`/auth/reset-password/${encodeURIComponent(uid)}/${encodeURIComponent(token)}/`, {
      json: { password },
    });
    return null;
  });
}

/** Choose a password after a code sign-up (only while the current one is auto-set). */
export async function setPassword(password: string): Promise<AuthResult<null>> {
  const result = await attempt(() => api.post("/auth/set-password/", { json: { password } }).json<CurrentUser>());
  if (!result.ok) return result;
  session.user = result.value;
  return { ok: true, value: null };
}

export function changePassword(oldPassword: string, newPassword: string): Promise<AuthResult<null>> {
  return attempt(async () => {
    await api.post("/auth/change-password/", { json: { old_password: oldPassword, new_password: newPassword } });
    return null;
  });
}

/** The form posts that end in a session. next_path is carried so the user lands where they were going. */
export type CredentialForm = {
  email: string;
  password: string;
  nextPath?: string | null;
  invitation?: InvitationLink | null;
};
export type CodeForm = { email: string; code: string; nextPath?: string | null };

function post(action: string, fields: Record<string, string | undefined>): Promise<AuthResult<null>> {
  // submitAuthForm navigates away on success; it throws when no CSRF token could be had.
  return attempt(async () => {
    await submitAuthForm(action, fields);
    return null;
  });
}

export function signInWithPassword({ email, password, nextPath }: CredentialForm) {
  return post("/auth/sign-in/", { email, password, next_path: nextPath ?? undefined });
}

export function signUpWithPassword({ email, password, nextPath, invitation }: CredentialForm) {
  return post("/auth/sign-up/", { email, password, next_path: nextPath ?? undefined, ...invitationFields(invitation) });
}

export function signInWithCode({ email, code, nextPath }: CodeForm) {
  return post("/auth/magic-sign-in/", { email, code, next_path: nextPath ?? undefined });
}

export function signUpWithCode({ email, code, nextPath }: CodeForm) {
  return post("/auth/magic-sign-up/", { email, code, next_path: nextPath ?? undefined });
}

/**
 * "Verify your address" for a signed-in account that signed up with a password: mail a code to
 * its address (to the server log when SMTP is not set up).
 */
export function sendVerificationCode(): Promise<AuthResult<{ sent: boolean; email: string }>> {
  return attempt(() => api.post("/auth/verify-email/send/", { json: {} }).json<{ sent: boolean; email: string }>());
}

/** Prove the address with the mailed code; the session's user is updated on success. */
export async function verifyEmail(code: string): Promise<AuthResult<null>> {
  const result = await attempt(() => api.post("/auth/verify-email/", { json: { code } }).json<CurrentUser>());
  if (!result.ok) return result;
  session.user = result.value;
  return { ok: true, value: null };
}
