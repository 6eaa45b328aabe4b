import { notFound } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** A path id that is not a UUID cannot name anything: answer 404, never a database error. */
export function requireUuid(value: unknown, what = "Resource"): string {
  if (!isUuid(value)) throw notFound(what);
  return value;
}
