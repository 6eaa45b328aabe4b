/**
 * Client mutation ids: every mutating request of a project's data carries a fresh
 * x-client-mutation-id, remembered here so the live layer can skip the echo of our own change
 * (the server puts the id on the domain event it emits).
 */
import { CLIENT_MUTATION_HEADER } from "@tideline/shared";

const sent = new Set<string>();
/** Old ids are forgotten: an echo arrives within seconds, never a thousand changes later. */
const KEPT = 1000;

/** Remember an id this client sends (again: an outbox replay after a reload sends an id of an earlier page). */
export function rememberClientMutation(id: string): void {
  sent.add(id);
  if (sent.size > KEPT) {
    const oldest = sent.values().next().value;
    if (oldest) sent.delete(oldest);
  }
}

/** A fresh remembered id, for a change that may be sent now or wait in the offline outbox. */
export function newClientMutationId(): string {
  const id = crypto.randomUUID();
  rememberClientMutation(id);
  return id;
}

/** Headers for one mutating request with the given id (a fresh one by default). */
export function mutationHeaders(id: string = newClientMutationId()): Record<string, string> {
  return { [CLIENT_MUTATION_HEADER]: id };
}

/** Did this client send the change with this id? */
export function isOwnClientMutation(id: string | null | undefined): boolean {
  return Boolean(id && sent.has(id));
}
