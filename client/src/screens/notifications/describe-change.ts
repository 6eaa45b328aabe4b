/**
 * What a notification's entry says changed, from `data.issue_activity` (the history row the
 * server copied into it) and the comment text: "Priority: Low → Urgent", "Due date: Nov 03, 2026
 * → Nov 10, 2026", "Label added: bug", "“Looks good, shipping it…”". The title already names who
 * did it and on which item; this line says what. Pure (no React), so unit-tested.
 */
import { format, parseISO } from "date-fns";
import type { TFunction } from "i18next";
import type { Notification } from "../../stores/notifications";

/** Words of a comment quoted in an entry before it is cut with "…". */
export const EXCERPT_WORDS = 12;

/** The first `words` words of `text` (whitespace collapsed), with "…" when cut. */
export function firstWords(text: string | null | undefined, words = EXCERPT_WORDS): string {
  const parts = (text ?? "").split(/\s+/).filter(Boolean);
  if (parts.length <= words) return parts.join(" ");
  return `${parts.slice(0, words).join(" ")}…`;
}

function formatDay(value: string): string {
  try {
    return format(parseISO(value.slice(0, 10)), "MMM dd, yyyy");
  } catch {
    return value;
  }
}

const PRIORITIES = new Set(["urgent", "high", "medium", "low", "none"]);

/** Fields whose history row carries an old and a new value shown as "old → new". */
const FROM_TO: Record<string, string> = {
  state: "state",
  priority: "priority",
  name: "name",
  start_date: "startDate",
  target_date: "targetDate",
  estimate_point: "estimate",
  // The server names an estimate row after the estimate's type, as the reference does.
  estimate_points: "estimate",
  estimate_categories: "estimate",
  estimate_time: "estimate",
  parent: "parent",
};

/**
 * The line saying what changed, or null when the notification carries nothing more than its
 * title says (an unknown field, an old notification without activity).
 */
export function describeNotificationChange(n: Notification, t: TFunction): string | null {
  const a = n.data.issue_activity;
  const comment = firstWords(n.message_stripped);
  const kind = n.sender.split(":").pop() ?? "";
  if (kind === "mentioned" || n.is_mentioned_notification) {
    if (a?.field === "comment") return comment ? t("notifications.change.quote", { text: comment }) : null;
    return t("notifications.change.mentionedInDescription");
  }
  if (!a) return comment ? t("notifications.change.quote", { text: comment }) : null;
  // "X assigned you to WEB-12" says it all: the change is the receiver's own assignment.
  if (kind === "assigned" || kind === "unassigned") return null;
  const field = a.field ?? "";
  if (field === "comment") {
    const text = comment || firstWords(a.new_value);
    return text ? t("notifications.change.quote", { text }) : null;
  }
  const none = t("notifications.change.none");
  const value = (v: string | null | undefined): string => {
    if (v === null || v === undefined || v === "") return none;
    if (field === "priority" && PRIORITIES.has(v)) return t(`workItems.priority.${v}`);
    if (field === "start_date" || field === "target_date") return formatDay(v);
    return v;
  };
  if (field === "assignees" || field === "labels") {
    const key = field === "assignees" ? "assignee" : "label";
    if (a.new_value) return t(`notifications.change.${key}Added`, { value: a.new_value });
    if (a.old_value) return t(`notifications.change.${key}Removed`, { value: a.old_value });
    return null;
  }
  if (field === "cycles" || field === "modules") {
    // The history row of a cycle or module move: names in old_value/new_value (a cycle row has
    // both when the item moved from one cycle to another).
    const kind = field === "cycles" ? "cycle" : "module";
    if (a.old_value && a.new_value && kind === "cycle")
      return t("cycleModule.notifications.cycleMoved", { from: a.old_value, to: a.new_value });
    if (a.new_value) return t(`cycleModule.notifications.${kind}Added`, { value: a.new_value });
    if (a.old_value) return t(`cycleModule.notifications.${kind}Removed`, { value: a.old_value });
    return null;
  }
  if (field === "description") return t("notifications.change.description");
  const label = FROM_TO[field];
  if (!label) return null;
  return t("notifications.change.fromTo", {
    field: t(`notifications.change.fields.${label}`),
    from: value(a.old_value),
    to: value(a.new_value),
  });
}
