/**
 * Authentication and instance-admin errors on the client (calls-errors-sync §8): the server
 * answers a catalogue code — in the query of a form redirect (`?error_code=5065&…`) or in a
 * JSON body (`{ error_code, error_message, error }`) — and the screens show the human message
 * in a banner on the step the code belongs to.
 */
import {
  AUTH_ERROR,
  AUTH_ERROR_MESSAGE,
  type AuthErrorCode,
  authErrorName,
  CODE_STEP_CODES,
  PASSWORD_STEP_CODES,
} from "@tideline/shared";
import { isHTTPError, isNetworkError, isTimeoutError } from "ky";
import { i18next } from "../i18n";

/** The steps of the sign-in and sign-up screens. */
export type AuthStep = "email" | "password" | "code";

export type AuthError = {
  /** Catalogue code, or null for an error outside the catalogue (network, server fault). */
  code: AuthErrorCode | null;
  message: string;
};

const GENERIC = "Error! Something went wrong. Please try again.";
const OFFLINE = "Can't reach the server. Check your connection and try again.";

function isCatalogueCode(code: number): code is AuthErrorCode {
  return authErrorName(code) !== undefined;
}

/** The message for a catalogue code; translations may override it under "auth.errors.<code>". */
export function authErrorMessage(code: AuthErrorCode): string {
  return i18next.t(`auth.errors.${code}`, { defaultValue: AUTH_ERROR_MESSAGE[code] });
}

/** The step whose banner shows this code: password or code step, else the email step. */
export function authErrorStep(code: number | null): AuthStep {
  if (code === null) return "email";
  if (PASSWORD_STEP_CODES.has(code)) return "password";
  if (CODE_STEP_CODES.has(code)) return "code";
  return "email";
}

/** The error a form redirect carried back in the query, if any. */
export function authErrorFromQuery(params: URLSearchParams): AuthError | null {
  const raw = params.get("error_code");
  if (!raw) return null;
  const code = Number(raw);
  if (Number.isInteger(code) && isCatalogueCode(code)) return { code, message: authErrorMessage(code) };
  return { code: null, message: GENERIC };
}

type AuthErrorBody = { error_code?: unknown; error?: unknown };

/** The error of a failed JSON auth call (HTTPError from ky, network failure, anything else). */
export function authErrorFrom(error: unknown): AuthError {
  if (isHTTPError(error)) {
    const body = error.data as AuthErrorBody | string | undefined;
    if (body && typeof body === "object") {
      const code = Number(body.error_code);
      if (Number.isInteger(code) && isCatalogueCode(code)) return { code, message: authErrorMessage(code) };
      if (typeof body.error === "string" && body.error) return { code: null, message: body.error };
    }
    if (error.response.status === 429) {
      return { code: AUTH_ERROR.RATE_LIMIT_EXCEEDED, message: authErrorMessage(AUTH_ERROR.RATE_LIMIT_EXCEEDED) };
    }
    return { code: null, message: GENERIC };
  }
  if (isNetworkError(error) || isTimeoutError(error) || error instanceof TypeError) {
    return { code: null, message: i18next.t("auth.errors.offline", { defaultValue: OFFLINE }) };
  }
  return { code: null, message: GENERIC };
}

/** Query parameters without the error ones, so a banner does not come back on reload. */
export function withoutErrorParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("error_code");
  next.delete("error_message");
  return next;
}
