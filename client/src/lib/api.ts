/**
 * The one HTTP client. Only store actions import it (components never call the server).
 * Cookies carry the session; a 401 sends the browser to sign-in with the current path as
 * next_path, so the user comes back to the same page afterwards.
 */
import ky, { HTTPError, NetworkError, TimeoutError } from "ky";
import { fetchWithLastAnswers, forgetKeptAnswers } from "./offline/last-answers";

export type ApiErrorBody = {
  error?: string;
  code?: string | number;
  fields?: Record<string, string[]>;
  error_code?: number;
  error_message?: string;
};

/**
 * Reads whose 401 is an answer, not an expired session: the app asks "who am I?" (and, in the same
 * breath, the profile) at start. Only their GETs: a refused change still goes to sign-in.
 */
const QUIET_401 = new Set(["/api/users/me/", "/api/users/me/profile/"]);

export function signInPathFor(location: Location = window.location): string {
  const next = location.pathname + location.search;
  return next && next !== "/" ? `/?next_path=${encodeURIComponent(next)}` : "/";
}

export const api = ky.create({
  credentials: "same-origin",
  // Offline, the reads the app starts with answer from their last answer (lib/offline/last-answers.ts).
  fetch: fetchWithLastAnswers,
  timeout: 30_000,
  retry: { limit: 2, methods: ["get"], statusCodes: [408, 502, 503, 504] },
  hooks: {
    afterResponse: [
      ({ request, response }) => {
        if (response.status === 401 && !(request.method === "GET" && QUIET_401.has(new URL(request.url).pathname))) {
          const signIn = signInPathFor();
          void forgetKeptAnswers().then(() => window.location.assign(signIn));
        }
      },
    ],
  },
});

/** A message a person can act on, from whatever the server or network answered. */
export async function errorMessage(
  error: unknown,
  fallback = "Error! Something went wrong. Please try again.",
): Promise<string> {
  if (error instanceof HTTPError) {
    const body = (error.data ?? (await error.response.json().catch(() => undefined))) as ApiErrorBody | undefined;
    if (body && typeof body === "object" && typeof body.error === "string") return body.error;
    return fallback;
  }
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof TypeError) {
    return "Can't reach the server. Check your connection and try again.";
  }
  return fallback;
}

/** Field errors from a 400, keyed by field name. */
export async function fieldErrors(error: unknown): Promise<Record<string, string>> {
  if (!(error instanceof HTTPError)) return {};
  const body = (error.data ?? (await error.response.json().catch(() => undefined))) as ApiErrorBody | undefined;
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(body?.fields ?? {})) if (messages[0]) out[key] = messages[0];
  return out;
}

export { HTTPError };
