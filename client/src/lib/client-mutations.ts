/**
 * Client mutation ids: every mutating request of a project's data carries a fresh
 * x-client-mutation-id, remembered here so the live layer can skip the echo of our own change
 * (the server puts the id on the domain event it emits).
 */
import { CLIENT_MUTATION_HEADER } from "@tideline/shared";

const sent = new Set<string>();
/** Old ids are forgotten: an echo arrives within seconds, never a thousand changes later. */
const KEPT = 1000;

/** Headers for one mutating request, with a fresh remembered id. */
export function mutationHeaders(): Record<string, string> {
  const id = crypto.randomUUID();
  sent.add(id);
  if (sent.size > KEPT) {
    const oldest = sent.values().next().value;
    if (oldest) sent.delete(oldest);
  }
  return { [CLIENT_MUTATION_HEADER]: id };
}

/** Did this client send the change with this id? */
export function isOwnClientMutation(id: string | null | undefined): boolean {
  return Boolean(id && sent.has(id));
}
