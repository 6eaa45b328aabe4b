/**
 * The app's one outbox (lib/offline/outbox.ts) and what the screens read of it: how many
 * changes wait, and which objects have one waiting (the "waiting to sync" marks).
 */
import { useSnapshot } from "valtio";
import { api } from "../api";
import { mutationHeaders, rememberClientMutation } from "../client-mutations";
import { defineStore } from "../store";
import { Outbox, type OutboxEntry } from "./outbox";

export const outboxState = defineStore(() => ({
  /** Changes waiting to be sent. */
  count: 0,
  /** Waiting changes per object id (a work item, a temp id). */
  waiting: {} as Record<string, number>,
}));

async function send(entry: OutboxEntry): Promise<unknown> {
  rememberClientMutation(entry.mutationId);
  const response = await api(entry.url, {
    method: entry.method,
    json: entry.body,
    headers: mutationHeaders(entry.mutationId),
    // The outbox decides when to try again (on reconnect, with back-off).
    retry: 0,
  });
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

export const outbox = new Outbox({ send });

outbox.subscribe((entries) => {
  const waiting: Record<string, number> = {};
  for (const entry of entries) waiting[entry.target] = (waiting[entry.target] ?? 0) + 1;
  outboxState.count = entries.length;
  outboxState.waiting = waiting;
});

/** Does this object have a change waiting to be sent? */
export function useWaitingToSync(id: string | null | undefined): boolean {
  const snap = useSnapshot(outboxState);
  return Boolean(id && snap.waiting[id]);
}
