/**
 * Domain events: what changed, by whom, and which client mutation caused it. The server emits
 * one after each committed change; the live layer broadcasts it to `project.{id}` (or
 * `user.{id}`), and webhooks and notifications consume the same stream. Clients skip the echo
 * of their own change by comparing `client_mutation_id` with the id they sent.
 */

/** Header a client sets on a mutating request so it can recognise the resulting event. */
export const CLIENT_MUTATION_HEADER = "x-client-mutation-id";

export const DOMAIN_EVENT_TYPES = [
  "issue.created",
  "issue.updated",
  "issue.deleted",
  "issue.archived",
  "issue.restored",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "reaction.created",
  "reaction.deleted",
  "relation.created",
  "relation.deleted",
  "link.created",
  "link.updated",
  "link.deleted",
  "attachment.created",
  "attachment.deleted",
  "subscription.created",
  "subscription.deleted",
  "state.created",
  "state.updated",
  "state.deleted",
  "label.created",
  "label.updated",
  "label.deleted",
  "estimate.created",
  "estimate.updated",
  "estimate.deleted",
  "project.created",
  "project.updated",
  "project.deleted",
  "project.member.added",
  "project.member.updated",
  "project.member.removed",
  "workspace.deleted",
  "workspace.member.added",
  "workspace.member.updated",
  "workspace.member.removed",
  "session.revoked",
  "page.created",
  "page.updated",
  "page.deleted",
  "page.archived",
  "page.restored",
  "page.locked",
  "page.unlocked",
  "page.moved",
  "cycle.created",
  "cycle.updated",
  "cycle.deleted",
  "cycle.archived",
  "cycle.restored",
  "notification.created",
  "notification.updated",
  "module.created",
  "module.updated",
  "module.deleted",
  "module.archived",
  "module.restored",
  "module.link.created",
  "module.link.updated",
  "module.link.deleted",
  "view.created",
  "view.updated",
  "view.deleted",
  "intake.created",
  "intake.updated",
  "intake.deleted",
  "sticky.created",
  "sticky.updated",
  "sticky.deleted",
  "favorite.created",
  "favorite.updated",
  "favorite.deleted",
  "quick_link.created",
  "quick_link.updated",
  "quick_link.deleted",
  "home_preference.updated",
  "sidebar_preference.updated",
  "export.created",
  "export.updated",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * Events about one person's own things (their notifications, stickies, favorites, quick links,
 * home widgets and sidebar entries): delivered only to
 * that person's `user.{id}` channel (eventRecipientId names them), never to a project's or a
 * workspace's channel, where the others in it would see them.
 */
export const PERSONAL_EVENT_ENTITIES = [
  "notification",
  "sticky",
  "favorite",
  "quick_link",
  "home_preference",
  "sidebar_preference",
] as const;

export function isPersonalEvent(event: { type: DomainEventType }): boolean {
  const entity = event.type.slice(0, event.type.indexOf("."));
  return (PERSONAL_EVENT_ENTITIES as readonly string[]).includes(entity);
}

/** The entity family an event is about (the part before the first dot). */
export type DomainEntity = DomainEventType extends `${infer E}.${string}` ? E : never;

/**
 * Events that change who may do what; the live layer re-checks (or closes) the open connections
 * they touch. Membership events carry the person in `data.member` (the user id), as
 * `eventRecipientId` reads it; `session.revoked` carries the ended sessions.
 */
export type SessionRevokedData = {
  user_id: string;
  /** Ids of the session rows that were ended (never tokens, nor their hashes). */
  session_ids: string[];
};

export type DomainEvent<T = Record<string, unknown>> = {
  /** Unique per event; clients use it to drop duplicates after a reconnect. */
  id: string;
  type: DomainEventType;
  /** Null only for events about an account rather than a workspace (`session.revoked`). */
  workspace_id: string | null;
  project_id: string | null;
  /** Id of the changed entity (work item, comment, state, …). */
  entity_id: string;
  actor_id: string | null;
  client_mutation_id: string | null;
  occurred_at: string;
  /** The entity as the REST API presents it after the change (before it, for deletions). */
  data: T;
};
