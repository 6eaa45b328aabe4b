/**
 * Auth refusals carry a catalogue code (calls-errors-sync §8). Handlers throw AuthFailure; the
 * JSON wrapper answers `{ error_code, error_message, error }` and the form wrapper redirects
 * back to the form's page with the code, so every flow refuses in the same shape.
 */
import { AUTH_ERROR, AUTH_ERROR_MESSAGE, type AuthErrorCode, authErrorName } from "@tideline/shared";
import type { FastifyReply } from "fastify";

export class AuthFailure extends Error {
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode) {
    super(AUTH_ERROR_MESSAGE[code]);
    this.code = code;
  }
}

/** Throw the refusal for `code` (reads as a statement at the call site). */
export function refuse(code: AuthErrorCode): never {
  throw new AuthFailure(code);
}

/** The JSON answer for an auth refusal: 400, or 429 when rate limited. */
export function sendAuthError(reply: FastifyReply, code: AuthErrorCode): FastifyReply {
  return reply.status(code === AUTH_ERROR.RATE_LIMIT_EXCEEDED ? 429 : 400).send({
    error_code: code,
    error_message: authErrorName(code) ?? "ERROR",
    error: AUTH_ERROR_MESSAGE[code],
  });
}
