/**
 * In-app notifications, made from the domain event stream (events/bus.ts). Each event arrives
 * after its transaction committed; the notifications it causes are written in a transaction of
 * their own, and `notification.created` is published after that one commits, for the live layer
 * to forward to `user.{receiver_id}`.
 *
 * Who hears of what (never the actor; only active project members who can see the work item —
 * a restricted guest only about items they created; each receiver's preferences apply):
 * - issue.created: the assignees ("assigned"); people mentioned in the description ("mentioned").
 * - issue.updated: per history row of the change — an added assignee ("assigned") or a removed one
 *   ("unassigned") hears alone; a state change goes to subscribers and assignees ("state_change",
 *   or "issue_completed" entering a completed state); any other field likewise
 *   ("property_change"), joining, leaving or moving between cycles and modules included (whichever
 *   route made the move: the work item's PATCH or bulk edit, the cycle's or module's item routes, a
 *   cycle transfer, a deleted module). People newly mentioned in a changed description get
 *   "mentioned" instead.
 *   A description saved from the live editor (no history, saved every few seconds) tells only
 *   the people it newly mentions.
 * - comment.created: subscribers and assignees ("comment"); people mentioned in it get
 *   "mentioned" instead. comment.updated: only people newly mentioned by the edit.
 * - Intake requests (routes/intake): a request's work item announces no issue.* event until it is
 *   accepted, so intake.created counts as its issue.created and an intake.updated that edited the
 *   work item (`changed_fields`) as its issue.updated; triage alone (snooze, decline, duplicate,
 *   accept) tells no one, as in the reference product (its intake status activity is recorded
 *   with notification=False). The acceptance's issue.created makes no notifications either (the
 *   item was announced when it was submitted): it turns is_inbox_issue off on the notifications
 *   about it and publishes notification.updated for each. While the item is a request, only
 *   members and its submitter hear of it (a guest sees only their own requests, whatever the
 *   project's guest_view_all says).
 * is_inbox_issue: set when the notification is made, true while its work item is an intake
 * request (issues.in_intake: pending, snoozed, declined or duplicate), with `data.intake = {id}`
 * (the request) for the client to open it in intake. The reference computes the flag on every
 * list from the request's status (pending, snoozed, duplicate); a declined request counts here
 * too, because Tideline's work-item paths answer 404 for any request until it is accepted.
 * Preferences (user_profiles.notification_preferences): mentioned → mention, comment → comment,
 * state_change → state_change, issue_completed → issue_completed or state_change, everything
 * else → property_change. A mentioned person whose mention preference is off still gets the
 * ordinary notification if they follow the item and that preference is on.
 */
import { type DomainEvent, LIVE_MUTATION_PREFIX, ROLE } from "@tideline/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, queryRows, type Tx } from "../db/client.ts";
import { inBackground } from "../db/priority.ts";
import {
  intakeIssues,
  issues,
  type NotificationPreferences,
  notifications,
  projectMembers,
  projects,
  states,
  userProfiles,
  users,
  workspaceMembers,
} from "../db/schema.ts";
import { type EmitFn, type EventBus, transactionWithEvents } from "../events/bus.ts";
import { isUuid } from "../http/ids.ts";
import { mentionedUserIds } from "./mentions.ts";
import { presentNotifications, unreadCounts } from "./presenter.ts";

/** The last part of `sender`; also decides which preference lets a notification through. */
export type NotificationKind =
  | "assigned"
  | "unassigned"
  | "state_change"
  | "issue_completed"
  | "property_change"
  | "comment"
  | "mentioned";

export const SENDER_PREFIX = "in_app:issue_activities:";

/** `data.issue_activity`: the change a notification is about, as the history records it. */
export type NotificationActivity = {
  id: string | null;
  verb: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  actor: string | null;
  issue_comment: string | null;
  created_at: string;
};

type IssueContext = {
  id: string;
  name: string;
  sequenceId: number;
  projectId: string;
  workspaceId: string;
  stateId: string | null;
  stateName: string | null;
  stateGroup: string | null;
  priority: string;
  isEpic: boolean;
  createdById: string | null;
  identifier: string;
  guestViewAll: boolean;
  /** Still an intake request (not accepted yet). */
  inIntake: boolean;
  /** The intake request it came from, if any (accepted ones too). */
  intakeId: string | null;
};

type Receiver = { id: string; name: string; prefs: NotificationPreferences };

type Draft = {
  receiverId: string;
  kind: NotificationKind;
  activity: NotificationActivity;
  /** Where a mention was made (titles differ). */
  mentionIn?: "comment" | "description";
  message?: { html: string; stripped: string };
};

/** `leftIntake`: the event is an intake request's acceptance (its notifications leave intake). */
type Plan = { issue: IssueContext; drafts: Draft[]; leftIntake?: boolean };

const HANDLED = new Set<string>([
  "issue.created",
  "issue.updated",
  "comment.created",
  "comment.updated",
  "intake.created",
  "intake.updated",
]);

const DEFAULT_PREFERENCES: NotificationPreferences = {
  property_change: true,
  state_change: true,
  comment: true,
  mention: true,
  issue_completed: true,
};

export function allows(prefs: NotificationPreferences, kind: NotificationKind): boolean {
  switch (kind) {
    case "mentioned":
      return prefs.mention;
    case "comment":
      return prefs.comment;
    case "state_change":
      return prefs.state_change;
    case "issue_completed":
      // "Issue completed" is the narrow switch: on, it lets completions through even when
      // every other state change is off.
      return prefs.issue_completed || prefs.state_change;
    default:
      return prefs.property_change;
  }
}

/** `changed_fields` of issue.updated → the `field` of the history rows that change writes. */
const HISTORY_FIELD: Record<string, string> = {
  name: "name",
  description_html: "description",
  state_id: "state",
  priority: "priority",
  parent_id: "parent",
  estimate_point: "estimate_point",
  start_date: "start_date",
  target_date: "target_date",
  assignee_ids: "assignees",
  label_ids: "labels",
  // Written by routes/cycles/membership.ts and routes/modules/membership.ts.
  cycle_id: "cycles",
  module_ids: "modules",
};

const FIELD_LABEL: Record<string, string> = {
  name: "title",
  description: "description",
  priority: "priority",
  parent: "parent",
  estimate_point: "estimate",
  start_date: "start date",
  target_date: "due date",
  // The history names an estimate row after the estimate's type, as the reference does.
  estimate_points: "estimate",
  estimate_categories: "estimate",
  estimate_time: "estimate",
  labels: "labels",
  cycles: "cycle",
  modules: "modules",
};

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const strList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

export function notificationTitle(draft: Draft, actorName: string, key: string): string {
  const a = draft.activity;
  switch (draft.kind) {
    case "assigned":
      return `${actorName} assigned you to ${key}`;
    case "unassigned":
      return `${actorName} unassigned you from ${key}`;
    case "state_change":
    case "issue_completed":
      return `${actorName} changed the state of ${key}`;
    case "comment":
      return `${actorName} commented on ${key}`;
    case "mentioned":
      return draft.mentionIn === "comment"
        ? `${actorName} mentioned you in a comment on ${key}`
        : `${actorName} mentioned you in ${key}`;
    default:
      if (a.field === "labels" && a.new_value) return `${actorName} added the label ${a.new_value} to ${key}`;
      if (a.field === "labels" && a.old_value) return `${actorName} removed the label ${a.old_value} from ${key}`;
      if (a.field === "cycles" || a.field === "modules") {
        const what = a.field === "cycles" ? "cycle" : "module";
        // A cycle row has both names when the item went from one cycle straight to another.
        if (a.old_value && a.new_value) return `${actorName} moved ${key} to the ${what} ${a.new_value}`;
        if (a.new_value) return `${actorName} added ${key} to the ${what} ${a.new_value}`;
        if (a.old_value) return `${actorName} removed ${key} from the ${what} ${a.old_value}`;
      }
      return `${actorName} changed the ${FIELD_LABEL[a.field] ?? a.field.replaceAll("_", " ")} of ${key}`;
  }
}

type ActivityRow = {
  id: string;
  field: string | null;
  verb: string;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  actor_id: string | null;
  comment_id: string | null;
  created_at: Date | string;
  tx: string;
};

function toActivity(row: ActivityRow): NotificationActivity {
  return {
    id: row.id,
    verb: row.verb,
    field: row.field ?? "",
    old_value: row.old_value,
    new_value: row.new_value,
    old_identifier: row.old_identifier,
    new_identifier: row.new_identifier,
    actor: row.actor_id,
    issue_comment: row.comment_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The list in the event's item that a per-member history row adds to or removes from. */
const LIST_OF = { assignees: "assignee_ids", labels: "label_ids", modules: "module_ids" } as const;

/** A row's field in changed_fields' terms: estimate rows are named after the estimate's type. */
const fieldOf = (row: Pick<ActivityRow, "field">): string =>
  row.field?.startsWith("estimate_") ? "estimate_point" : (row.field ?? "");

/** Does this history row agree with the item as the event presents it after the change? */
function agreesWith(row: ActivityRow, data: Record<string, unknown>): boolean {
  const field = fieldOf(row);
  switch (field) {
    case "state":
      return row.new_identifier === str(data.state_id);
    case "parent":
      return row.new_identifier === str(data.parent_id);
    case "estimate_point":
      return row.new_identifier === str(data.estimate_point);
    case "cycles":
      return row.new_identifier === str(data.cycle_id);
    case "name":
    case "priority":
    case "start_date":
    case "target_date":
      // A cleared date is "" in the history (as the reference writes it), null on the item.
      return (row.new_value || null) === str(data[field]);
    case "assignees":
    case "labels":
    case "modules": {
      const now = strList(data[LIST_OF[field]]);
      if (row.new_identifier && !now.includes(row.new_identifier)) return false;
      return !(row.old_identifier && now.includes(row.old_identifier));
    }
    default:
      return true;
  }
}

export class NotificationService {
  private readonly db: Db;
  private readonly bus: EventBus;
  private readonly log: FastifyBaseLogger;
  /** Events are handled one after another, in the order they were published. */
  private tail: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;

  constructor(db: Db, bus: EventBus, log: FastifyBaseLogger) {
    this.db = db;
    this.bus = bus;
    this.log = log;
  }

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.bus.subscribe((event) => {
      if (HANDLED.has(event.type)) this.enqueue(event);
    });
  }

  /** Stop listening and finish what was already heard (before the database closes). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.idle();
  }

  /** Resolves once every event heard so far has been handled (tests wait on it). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.tail;
      await current;
    } while (current !== this.tail);
  }

  private enqueue(event: DomainEvent): void {
    this.tail = this.tail
      // Nobody waits on it: its statements let requests' go first (db/priority.ts).
      .then(() => inBackground(() => this.handle(event)))
      .then(
        () => undefined,
        (err: unknown) => this.log.error({ err, type: event.type, eventId: event.id }, "notifications failed"),
      );
  }

  /** Make the notifications one event causes; returns how many were made. */
  async handle(event: DomainEvent): Promise<number> {
    if (!HANDLED.has(event.type)) return 0;
    const actorId = event.actor_id;
    return transactionWithEvents(this.db, this.bus, { actorId, clientMutationId: null }, async (tx, emit) => {
      const plan = await this.plan(tx, event);
      if (plan?.leftIntake) return leaveIntake(tx, emit, plan.issue);
      if (!plan || plan.drafts.length === 0) return 0;
      const { issue, drafts } = plan;
      const receiverIds = [...new Set(drafts.map((d) => d.receiverId))];

      // With several instances an event can be heard twice (relayed): the first one wins.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`notifications:${event.id}`}))`);
      const [seen] = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(
          and(
            eq(notifications.workspaceId, issue.workspaceId),
            inArray(notifications.receiverId, receiverIds),
            sql`${notifications.data}->>'source_event_id' = ${event.id}`,
          ),
        )
        .limit(1);
      if (seen) return 0;

      let inIntake = issue.inIntake;
      if (inIntake) {
        // Read again under a share lock: an acceptance (which locks the item's row) either
        // committed before — then these rows are made outside intake — or waits for this
        // transaction, and its issue.created then finds these rows to turn off.
        const [now] = await tx
          .select({ inIntake: issues.inIntake })
          .from(issues)
          .where(eq(issues.id, issue.id))
          .for("share");
        inIntake = now?.inIntake ?? false;
      }
      const intake = inIntake && issue.intakeId ? { intake: { id: issue.intakeId } } : {};

      const [actor] = actorId
        ? await tx
            .select({ displayName: users.displayName, firstName: users.firstName })
            .from(users)
            .where(eq(users.id, actorId))
        : [];
      const actorName = actor?.displayName || actor?.firstName || "Someone";
      const key = `${issue.identifier}-${issue.sequenceId}`;
      const issueData = {
        id: issue.id,
        name: issue.name,
        sequence_id: issue.sequenceId,
        identifier: issue.identifier,
        project_id: issue.projectId,
        state_id: issue.stateId,
        state_name: issue.stateName,
        state_group: issue.stateGroup,
        priority: issue.priority,
        is_epic: issue.isEpic,
      };
      const rows = await tx
        .insert(notifications)
        .values(
          drafts.map((d) => ({
            workspaceId: issue.workspaceId,
            projectId: issue.projectId,
            receiverId: d.receiverId,
            triggeredById: actorId,
            entityIdentifier: issue.id,
            entityName: "issue",
            title: notificationTitle(d, actorName, key),
            message: d.message ? d.message.stripped : null,
            messageHtml: d.message?.html ?? "",
            messageStripped: d.message?.stripped ?? "",
            data: { source_event_id: event.id, issue: issueData, issue_activity: d.activity, ...intake },
            sender: `${SENDER_PREFIX}${d.kind}`,
            isMentionedNotification: d.kind === "mentioned",
            isInboxIssue: inIntake,
            createdById: actorId,
            updatedById: actorId,
            // One event can make several rows for one person: keep them in the order made.
            createdAt: sql`clock_timestamp()`,
          })),
        )
        .returning();
      await publishNotifications(tx, emit, "notification.created", issue, rows);
      return rows.length;
    });
  }

  private async plan(tx: Tx, event: DomainEvent): Promise<Plan | null> {
    const data = event.data;
    switch (event.type) {
      case "issue.created":
        return this.planIssueCreated(tx, event, event.entity_id, data, false);
      case "issue.updated":
        return this.planIssueUpdated(tx, event, event.entity_id, data);
      case "comment.created":
      case "comment.updated":
        return this.planComment(tx, event, data);
      case "intake.created":
      case "intake.updated": {
        // The event is about the request; its work item (as issue.* events present one) is `issue`.
        const item = data.issue as Record<string, unknown> | null | undefined;
        const itemId = str(item?.id);
        if (!item || !itemId) return null;
        return event.type === "intake.created"
          ? this.planIssueCreated(tx, event, itemId, item, true)
          : this.planIssueUpdated(tx, event, itemId, { ...item, changed_fields: data.changed_fields });
      }
      default:
        return null;
    }
  }

  private async planIssueCreated(
    tx: Tx,
    event: DomainEvent,
    issueId: string,
    data: Record<string, unknown>,
    submitted: boolean,
  ): Promise<Plan | null> {
    const issue = await loadIssueContext(tx, issueId);
    if (!issue) return null;
    // An accepted request: announced when it was submitted (intake.created).
    if (!submitted && issue.intakeId) return { issue, drafts: [], leftIntake: true };
    const assignees = strList(data.assignee_ids);
    const mentioned = mentionedUserIds(str(data.description_html));
    const audience = await loadAudience(tx, issue, [...assignees, ...mentioned], event.actor_id);
    const at = event.occurred_at;
    const drafts: Draft[] = [];
    for (const id of assignees) {
      const r = audience.get(id);
      if (!r || !allows(r.prefs, "assigned")) continue;
      drafts.push({
        receiverId: id,
        kind: "assigned",
        // As the history row of a creation's assignee reads (the reference's "added assignee").
        activity: synthetic(
          event,
          "updated",
          "assignees",
          { old_value: "", new_value: r.name, new_identifier: id },
          at,
        ),
      });
    }
    for (const id of mentioned) {
      const r = audience.get(id);
      if (!r || !allows(r.prefs, "mentioned")) continue;
      drafts.push({
        receiverId: id,
        kind: "mentioned",
        mentionIn: "description",
        activity: synthetic(event, "created", "description", {}, at),
      });
    }
    return { issue, drafts };
  }

  private async planIssueUpdated(
    tx: Tx,
    event: DomainEvent,
    issueId: string,
    data: Record<string, unknown>,
  ): Promise<Plan | null> {
    const expected = new Set(
      strList(data.changed_fields)
        .map((f) => HISTORY_FIELD[f])
        .filter((f): f is string => Boolean(f)),
    );
    if (expected.size === 0) return null;
    const issue = await loadIssueContext(tx, issueId);
    if (!issue) return null;
    // A description saved from the live editor (folded every few seconds) writes no history and
    // tells no followers; only the people it newly mentions hear of it.
    const live = event.client_mutation_id?.startsWith(LIVE_MUTATION_PREFIX) ?? false;
    const rows = live ? [] : await historyOfChange(tx, event, issue.id, data, expected);
    if (!rows) {
      this.log.warn({ eventId: event.id, issueId: issue.id }, "notifications: history of the change not found");
    }
    const history = rows ?? [];
    const followers = await followersOf(tx, issue.id);

    // Mentions that the new description adds (people already told about a mention in it are not told again).
    let mentioned: string[] = [];
    if (expected.has("description")) {
      const inText = mentionedUserIds(str(data.description_html));
      const told = await alreadyMentioned(tx, issue.id, inText, "field", "description");
      mentioned = inText.filter((id) => !told.has(id));
    }
    const candidates = [...followers, ...mentioned];
    for (const row of history) candidates.push(row.new_identifier ?? "", row.old_identifier ?? "");
    const audience = await loadAudience(tx, issue, candidates, event.actor_id);

    const drafts: Draft[] = [];
    const toFollowers = (kind: NotificationKind, activity: NotificationActivity, except: Set<string> = new Set()) => {
      for (const id of followers) {
        const r = audience.get(id);
        if (r && !except.has(id) && allows(r.prefs, kind)) drafts.push({ receiverId: id, kind, activity });
      }
    };
    const stateGroups = await groupsOf(
      tx,
      history.filter((r) => r.field === "state").map((r) => r.new_identifier),
    );
    let descriptionActivity: NotificationActivity | null = null;
    for (const row of history) {
      const activity = toActivity(row);
      if (row.field === "assignees") {
        const id = row.new_identifier ?? row.old_identifier;
        const kind: NotificationKind = row.new_identifier ? "assigned" : "unassigned";
        const r = id ? audience.get(id) : undefined;
        if (id && r && allows(r.prefs, kind)) drafts.push({ receiverId: id, kind, activity });
      } else if (row.field === "state") {
        const entersCompleted = stateGroups.get(row.new_identifier ?? "") === "completed";
        toFollowers(entersCompleted ? "issue_completed" : "state_change", activity);
      } else if (row.field === "description") {
        descriptionActivity = activity;
      } else if (row.field) {
        toFollowers("property_change", activity);
      }
    }
    if (expected.has("description")) {
      const activity = descriptionActivity ?? synthetic(event, "updated", "description", {}, event.occurred_at);
      const mentionedNow = new Set<string>();
      for (const id of mentioned) {
        const r = audience.get(id);
        if (!r || !allows(r.prefs, "mentioned")) continue;
        mentionedNow.add(id);
        drafts.push({ receiverId: id, kind: "mentioned", mentionIn: "description", activity });
      }
      if (descriptionActivity) toFollowers("property_change", descriptionActivity, mentionedNow);
    }
    return { issue, drafts };
  }

  private async planComment(tx: Tx, event: DomainEvent, data: Record<string, unknown>): Promise<Plan | null> {
    const commentId = event.entity_id;
    const issue = await loadIssueContext(tx, str(data.issue_id) ?? str(data.issue) ?? "");
    if (!issue) return null;
    const html = str(data.comment_html) ?? "";
    const message = { html, stripped: str(data.comment_stripped) ?? "" };
    const created = event.type === "comment.created";
    const inText = mentionedUserIds(html);
    const told = created ? new Set<string>() : await alreadyMentioned(tx, issue.id, inText, "issue_comment", commentId);
    const mentioned = new Set(inText.filter((id) => !told.has(id)));
    const followers = created ? await followersOf(tx, issue.id) : [];
    const audience = await loadAudience(tx, issue, [...followers, ...mentioned], event.actor_id);

    const [row] = isUuid(commentId)
      ? await queryRows<ActivityRow>(
          tx,
          sql`select id::text as id, field, verb, old_value, new_value, old_identifier::text as old_identifier,
                new_identifier::text as new_identifier, actor_id::text as actor_id, comment_id::text as comment_id,
                created_at, '' as tx
              from issue_activities
              where comment_id = ${commentId}::uuid and field = 'comment' and verb = ${created ? "created" : "updated"}
              order by created_at desc limit 1`,
        )
      : [];
    const activity = row
      ? toActivity(row)
      : synthetic(
          event,
          created ? "created" : "updated",
          "comment",
          { new_value: message.stripped },
          event.occurred_at,
        );
    activity.issue_comment = isUuid(commentId) ? commentId : null;

    const drafts: Draft[] = [];
    const seen = new Set<string>();
    for (const id of mentioned) {
      const r = audience.get(id);
      if (!r || !allows(r.prefs, "mentioned")) continue;
      seen.add(id);
      drafts.push({ receiverId: id, kind: "mentioned", mentionIn: "comment", activity, message });
    }
    for (const id of followers) {
      const r = audience.get(id);
      if (!r || seen.has(id) || !allows(r.prefs, "comment")) continue;
      drafts.push({ receiverId: id, kind: "comment", activity, message });
    }
    return { issue, drafts };
  }
}

function synthetic(
  event: DomainEvent,
  verb: string,
  field: string,
  values: Partial<NotificationActivity>,
  at: string,
): NotificationActivity {
  return {
    id: null,
    verb,
    field,
    old_value: null,
    new_value: null,
    old_identifier: null,
    new_identifier: null,
    actor: event.actor_id,
    issue_comment: null,
    created_at: at,
    ...values,
  };
}

/** The work item with what titles and `data.issue` need; null when gone, deleted or a draft. */
async function loadIssueContext(tx: Tx, issueId: string): Promise<IssueContext | null> {
  if (!isUuid(issueId)) return null;
  const [row] = await tx
    .select({
      id: issues.id,
      name: issues.name,
      sequenceId: issues.sequenceId,
      projectId: issues.projectId,
      workspaceId: issues.workspaceId,
      stateId: issues.stateId,
      stateName: states.name,
      stateGroup: states.group,
      priority: issues.priority,
      isEpic: issues.isEpic,
      isDraft: issues.isDraft,
      deletedAt: issues.deletedAt,
      createdById: issues.createdById,
      identifier: projects.identifier,
      guestViewAll: projects.guestViewAllFeatures,
      inIntake: issues.inIntake,
      intakeId: intakeIssues.id,
    })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .leftJoin(states, eq(states.id, issues.stateId))
    .leftJoin(intakeIssues, eq(intakeIssues.issueId, issues.id))
    .where(eq(issues.id, issueId))
    .limit(1);
  if (!row || row.deletedAt || row.isDraft) return null;
  const { isDraft: _draft, deletedAt: _deleted, ...issue } = row;
  return issue;
}

/** Subscribers and assignees of the item, now. */
async function followersOf(tx: Tx, issueId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select subscriber_id::text as id from issue_subscribers where issue_id = ${issueId}::uuid
        union select assignee_id::text from issue_assignees where issue_id = ${issueId}::uuid`,
  );
  return rows.map((r) => r.id);
}

/**
 * Of `candidates`, those who may hear about the item, with their preferences: not the actor,
 * active users, active members of the workspace and of the item's project, and — for a guest of a
 * project that hides other people's items from guests, or of any project while the item is an
 * intake request (routes/intake: a guest sees only their own requests) — only its creator.
 */
async function loadAudience(
  tx: Tx,
  issue: IssueContext,
  candidates: readonly string[],
  actorId: string | null,
): Promise<Map<string, Receiver>> {
  const ids = [...new Set(candidates.filter(isUuid).map((id) => id.toLowerCase()))].filter((id) => id !== actorId);
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: projectMembers.memberId,
      role: projectMembers.role,
      name: users.displayName,
      prefs: userProfiles.notificationPreferences,
    })
    .from(projectMembers)
    .innerJoin(users, and(eq(users.id, projectMembers.memberId), eq(users.isActive, true)))
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, projectMembers.workspaceId),
        eq(workspaceMembers.memberId, projectMembers.memberId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .leftJoin(userProfiles, eq(userProfiles.userId, projectMembers.memberId))
    .where(
      and(
        eq(projectMembers.projectId, issue.projectId),
        eq(projectMembers.isActive, true),
        inArray(projectMembers.memberId, ids),
      ),
    );
  const out = new Map<string, Receiver>();
  for (const r of rows) {
    const seesItem = r.role >= ROLE.member || (issue.guestViewAll && !issue.inIntake) || issue.createdById === r.id;
    if (!seesItem) continue;
    out.set(r.id, { id: r.id, name: r.name, prefs: { ...DEFAULT_PREFERENCES, ...(r.prefs ?? {}) } });
  }
  return out;
}

/** Of `ids`, those who already have a mention notification about this item whose activity has `key = value`. */
async function alreadyMentioned(
  tx: Tx,
  issueId: string,
  ids: readonly string[],
  key: "field" | "issue_comment",
  value: string,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: notifications.receiverId })
    .from(notifications)
    .where(
      and(
        eq(notifications.entityIdentifier, issueId),
        eq(notifications.isMentionedNotification, true),
        inArray(notifications.receiverId, [...ids]),
        sql`${notifications.data}->'issue_activity'->>${key} = ${value}`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The state group of each state id. */
async function groupsOf(tx: Tx, stateIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = stateIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = await tx.select({ id: states.id, group: states.group }).from(states).where(inArray(states.id, ids));
  return new Map(rows.map((r) => [r.id, r.group]));
}

/**
 * The history rows written by the change an issue.updated announces. The event does not name
 * them, so: rows of one transaction share `xmin`; take the newest transaction on this item by
 * this actor whose rows cover exactly the changed fields and agree with the item as the event
 * shows it. Changes to one item are serialised by its row lock, so a newer change can only be
 * mistaken for this one when it sets the same fields to the same values — which then reads the
 * same. Null when nothing matches.
 */
async function historyOfChange(
  tx: Tx,
  event: DomainEvent,
  issueId: string,
  data: Record<string, unknown>,
  expected: Set<string>,
): Promise<ActivityRow[] | null> {
  const rows = await queryRows<ActivityRow>(
    tx,
    sql`select id::text as id, field, verb, old_value, new_value, old_identifier::text as old_identifier,
          new_identifier::text as new_identifier, actor_id::text as actor_id, comment_id::text as comment_id,
          created_at, xmin::text as tx
        from issue_activities
        where issue_id = ${issueId}::uuid
          and (verb in ('updated', 'removed') or (field in ('cycles', 'modules') and verb in ('created', 'deleted')))
        order by created_at desc, id desc
        limit 200`,
  );
  const groups = new Map<string, ActivityRow[]>();
  for (const row of rows) {
    const group = groups.get(row.tx) ?? [];
    group.push(row);
    groups.set(row.tx, group);
  }
  // History written long before the event can't be its own (generous for clock skew between app and database).
  const notBefore = Date.parse(event.occurred_at) - HISTORY_WINDOW_MS;
  for (const group of groups.values()) {
    if (group.some((r) => r.actor_id !== event.actor_id)) continue;
    if (group.every((r) => new Date(r.created_at).getTime() < notBefore)) break;
    const fields = new Set(group.map(fieldOf));
    if (fields.size !== expected.size || [...expected].some((f) => !fields.has(f))) continue;
    if (!group.every((r) => agreesWith(r, data))) continue;
    // Oldest first, as they were written.
    return group.reverse();
  }
  return null;
}

const HISTORY_WINDOW_MS = 10 * 60 * 1000;

/**
 * An intake request was accepted: the notifications about its work item stop being intake ones
 * (the client opens the work item, no longer the request). Each changed one is published as
 * notification.updated to its receiver. Returns how many changed.
 */
async function leaveIntake(tx: Tx, emit: EmitFn, issue: IssueContext): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ isInboxIssue: false, updatedAt: new Date() })
    .where(
      and(
        eq(notifications.workspaceId, issue.workspaceId),
        eq(notifications.entityIdentifier, issue.id),
        eq(notifications.isInboxIssue, true),
      ),
    )
    .returning();
  if (rows.length === 0) return 0;
  await publishNotifications(tx, emit, "notification.updated", issue, rows);
  return rows.length;
}

/**
 * Each row, as the list answers it, to its receiver's user channel, with the receiver's unread
 * counts after the change (the sidebar's badge follows without a request).
 */
async function publishNotifications(
  tx: Tx,
  emit: EmitFn,
  type: "notification.created" | "notification.updated",
  issue: IssueContext,
  rows: (typeof notifications.$inferSelect)[],
): Promise<void> {
  const presented = await presentNotifications(tx, rows);
  const counts = await unreadCounts(
    tx,
    issue.workspaceId,
    rows.map((r) => r.receiverId),
  );
  for (const n of presented) {
    emit(
      type,
      { workspaceId: issue.workspaceId, projectId: issue.projectId, entityId: n.id },
      { ...n, receiver_id: n.receiver, unread_counts: counts.get(n.receiver) ?? null },
    );
  }
}

/** The notification service of an app, for tests that wait until it is idle. */
const services = new WeakMap<object, NotificationService>();

export function registerNotificationService(key: object, service: NotificationService): void {
  services.set(key, service);
}

export function notificationServiceOf(key: object): NotificationService | undefined {
  return services.get(key);
}
