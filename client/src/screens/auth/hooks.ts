import { safeNextPath } from "@tideline/shared";
import { type RefObject, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { type AuthError, authErrorFromQuery, withoutErrorParams } from "../../lib/auth-errors";
import type { InvitationLink } from "../../stores/auth";

export type AuthQuery = {
  /** The email the server sent back (or a link carried), to pre-fill the form. */
  email: string;
  /** The validated destination after sign-in; kept through every step and form post. */
  nextPath: string | null;
  /** The error a form redirect carried back, read once on arrival. */
  error: AuthError | null;
  /** "code": open on the code step (the "… with a code instead" link's address). */
  method: "code" | null;
};

/**
 * Read email, next_path and the redirect's error from the query. The error parameters are
 * then dropped from the address bar, so a reload or a shared link does not show a stale banner.
 */
export function useAuthQuery(): AuthQuery {
  const [params, setParams] = useSearchParams();
  const [initial] = useState(() => ({
    email: params.get("email") ?? "",
    nextPath: safeNextPath(params.get("next_path")),
    error: authErrorFromQuery(params),
    method: params.get("method") === "code" ? ("code" as const) : null,
  }));
  useEffect(() => {
    if (params.has("error_code") || params.has("error_message") || params.has("method")) {
      const next = withoutErrorParams(params);
      next.delete("method");
      setParams(next, { replace: true });
    }
  }, [params, setParams]);
  return initial;
}

/** A query string carrying email and next_path to another auth screen. */
export function authLink(
  path: string,
  email: string | null | undefined,
  nextPath: string | null,
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams();
  if (email) params.set("email", email);
  if (nextPath) params.set("next_path", nextPath);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Whole seconds left until `deadline` (ms epoch), re-rendering while it runs; 0 once passed. */
export function useSecondsLeft(deadline: number | null): number {
  const [, setTick] = useState(0);
  const left = deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const running = left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setTick((n) => n + 1), 250);
    return () => window.clearInterval(timer);
  }, [running]);
  return left;
}

/** Focus an input when it appears (a step's first field), instead of autoFocus, which the a11y lint refuses. */
export function useFocusOnMount(ref: RefObject<HTMLInputElement | null>, select = false): void {
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    input.focus();
    if (select) input.select();
  }, [ref, select]);
}

/**
 * The invitation link (id + token) when next_path leads back to the invitation e-mail's landing
 * page: a sign-up from there carries it, so the account starts with a proven address (and may
 * sign up with a password on an invite-only instance).
 */
export function invitationFromNextPath(nextPath: string | null): InvitationLink | null {
  if (!nextPath) return null;
  const url = new URL(nextPath, "http://same.invalid");
  if (url.pathname !== "/workspace-invitations/") return null;
  const id = url.searchParams.get("invitation_id");
  const token = url.searchParams.get("token");
  return id && token ? { id, token } : null;
}
