/**
 * Error answers of /api/v1 as the reference's public API gives them: authentication,
 * permission and throttling refusals as {"detail": "..."} (Django REST framework's), the rest
 * as {"error": "..."} (its views' own), with our catalogue `code` and, on bad input, `fields`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { ApiError, zodToApiError } from "../http/errors.ts";
import { databaseInputError } from "../http/input.ts";

export function publicApiErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  let apiError: ApiError | null = null;
  if (error instanceof ApiError) apiError = error;
  else if (error instanceof ZodError) apiError = zodToApiError(error);
  else apiError = databaseInputError(error);
  if (!apiError) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) apiError = new ApiError(status, error.message);
  }
  if (!apiError) {
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "Something went wrong please try again later" });
  }
  if ([401, 403, 429].includes(apiError.status)) {
    return reply.status(apiError.status).send({ detail: apiError.message, code: apiError.code });
  }
  return reply
    .status(apiError.status)
    .send({ error: apiError.message, code: apiError.code, ...(apiError.fields ? { fields: apiError.fields } : {}) });
}
