/**
 * What the live layer needs to revoke rights that open connections already hold:
 * - which domain events change whose rights (`rightsScope`): a session ending, a membership or
 *   role change, a workspace or project deleted, a page or work item whose access changed;
 * - the sessions ended recently, so a document that was authenticating while its session ended
 *   (it read the session before the delete committed) is still closed once it is set up;
 * - an epoch that every rights change advances, so a connection whose rights were read before
 *   a change it could not see yet (it was not registered on its document when the re-check ran)
 *   is checked again once it is.
 * Every instance keeps its own watch and hears every event (through the Redis relay).
 */
import type { DomainEvent, SessionRevokedData } from "@tideline/shared";
import { eventRecipientId, LIVE_MUTATION_PREFIX } from "@tideline/shared";

/** Which open connections an event may have changed the rights of. */
export type RightsScope =
  /** Close the WebSockets these sessions authenticated. */
  | { kind: "sessions"; userId: string; sessionIds: string[] }
  /** Re-check every connection of this user (membership, role). */
  | { kind: "user"; userId: string }
  /** Re-check every connection to this page or work item. */
  | { kind: "entity"; id: string }
  /** Re-check every connection whose rights come from this project. */
  | { kind: "project"; projectId: string }
  /** Re-check every connection inside this workspace. */
  | { kind: "workspace"; workspaceId: string };

const ENTITY_EVENTS = /^(page\.|issue\.(deleted|archived|restored)$)/;

/** The connections `event` may change the rights of, or null when it changes none. */
export function rightsScope(event: DomainEvent): RightsScope | null {
  // A store by the live layer itself changes content, never rights (and happens every few seconds).
  if (event.client_mutation_id?.startsWith(LIVE_MUTATION_PREFIX)) return null;
  if (event.type === "session.revoked") {
    const data = event.data as Partial<SessionRevokedData>;
    const ids = Array.isArray(data.session_ids) ? data.session_ids.filter((id) => typeof id === "string") : [];
    return typeof data.user_id === "string" && ids.length > 0
      ? { kind: "sessions", userId: data.user_id, sessionIds: ids }
      : null;
  }
  if (event.type.startsWith("workspace.member.") || event.type.startsWith("project.member.")) {
    const member = eventRecipientId(event);
    if (member) return { kind: "user", userId: member };
    if (event.project_id) return { kind: "project", projectId: event.project_id };
    return event.workspace_id ? { kind: "workspace", workspaceId: event.workspace_id } : null;
  }
  if (event.type === "workspace.deleted" && event.workspace_id) {
    return { kind: "workspace", workspaceId: event.workspace_id };
  }
  if (event.type === "project.deleted" && event.project_id) return { kind: "project", projectId: event.project_id };
  if (event.type === "project.updated" && event.project_id) {
    // Only the guest setting changes rights (what a restricted guest may open and receive).
    const changed = event.data.changed_fields;
    if (!Array.isArray(changed) || changed.includes("guest_view_all_features")) {
      return { kind: "project", projectId: event.project_id };
    }
    return null;
  }
  if (ENTITY_EVENTS.test(event.type)) return { kind: "entity", id: event.entity_id };
  return null;
}

/** How long an ended session is remembered (covers any authentication still running). */
const REMEMBER_MS = 60_000;

export class RightsWatch {
  /** Advanced by every rights change this instance hears of. */
  epoch = 0;
  private readonly ended = new Map<string, number>();

  /** A rights change was heard (before the re-check runs). */
  changed(): void {
    this.epoch += 1;
  }

  /** Sessions were ended: remember them for a minute. */
  sessionsEnded(ids: readonly string[]): void {
    const now = Date.now();
    for (const [id, at] of this.ended) if (now - at > REMEMBER_MS) this.ended.delete(id);
    for (const id of ids) this.ended.set(id, now);
    this.changed();
  }

  /** True when this session was ended in the last minute. */
  isEnded(sessionId: string): boolean {
    const at = this.ended.get(sessionId);
    return at !== undefined && Date.now() - at <= REMEMBER_MS;
  }
}
