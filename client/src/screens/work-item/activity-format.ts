/**
 * History rows as sentences: "Ada Lovelace changed the state from Todo to In Progress".
 * Names come from the identifiers the server keeps beside each value (a state id, a label id, a
 * member id…) resolved against the project as it is now, so a renamed state reads with its
 * current name; the stored value is the fallback when the thing is gone. Pure: the translate
 * function and the resolvers are passed in (tested in activity-format.test.ts).
 */
import { personName } from "@tideline/shared";
import { formatDay } from "./format";

export type ActivityRow = {
  verb: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  actor_detail: { first_name: string; last_name: string; display_name: string } | null;
};

export type Translate = (key: string, vars?: Record<string, string>) => string;

export type Resolvers = {
  state?: (id: string) => string | undefined;
  label?: (id: string) => string | undefined;
  member?: (id: string) => string | undefined;
  estimate?: (id: string) => string | undefined;
  cycle?: (id: string) => string | undefined;
  module?: (id: string) => string | undefined;
  attachment?: (id: string) => string | undefined;
};

const P = "workItem.activity";
/** Cycle and module sentences live with the rest of the board's cycle/module words. */
const CM = "cycleModule.activity";

/** The person who made the change, named as everywhere (personName: their display name). */
export function actorName(row: Pick<ActivityRow, "actor_detail">, t: Translate): string {
  const a = row.actor_detail;
  return a ? personName(a) : t(`${P}.someone`);
}

function named(
  id: string | null,
  value: string | null,
  resolve: ((id: string) => string | undefined) | undefined,
): string | null {
  return (id && resolve?.(id)) || value;
}

const RELATION_FIELDS = new Set([
  "blocked_by",
  "blocking",
  "relates_to",
  "duplicate",
  "start_before",
  "start_after",
  "finish_before",
  "finish_after",
]);

/** An attachment row's recorded value, unless it is the file's address (what the server records now). */
const attachmentName = (value: string | null) => (value && !value.startsWith("/api/") ? value : null);

/**
 * One history row as a sentence (actor first). Rows are written as the reference product writes
 * them (services/issue-activity.ts on the server): the emptied side of a change is "", a relation
 * added is an "updated" row, archiving is an archived_at row ("restore" when restored).
 */
export function describeActivity(row: ActivityRow, t: Translate, resolve: Resolvers = {}): string {
  const actor = actorName(row, t);
  const say = (key: string, vars: Record<string, string> = {}) => t(`${P}.${key}`, { actor, ...vars });
  const field = row.field;

  // Rows written before the server recorded archiving as archived_at changes.
  if (row.verb === "archived") return say("archived");
  if (row.verb === "restored") return say("restored");
  if (field === null || field === "issue") {
    if (row.verb === "created") return say("created");
    if (row.verb === "deleted") return say("deleted");
    return say("updated");
  }
  if (field.startsWith("estimate_")) {
    const value = named(row.new_identifier, row.new_value || null, resolve.estimate);
    return value ? say("estimateSet", { value }) : say("estimateRemoved");
  }

  switch (field) {
    case "name":
      return say("name", { value: row.new_value ?? "" });
    case "description":
      return say("description");
    case "state": {
      const from = named(row.old_identifier, row.old_value, resolve.state);
      const to = named(row.new_identifier, row.new_value, resolve.state) ?? t(`${P}.none`);
      return from ? say("state", { from, to }) : say("stateSet", { to });
    }
    case "priority": {
      const label = (p: string | null) => t(`workItem.priority.${p ?? "none"}`);
      return say("priority", { from: label(row.old_value), to: label(row.new_value) });
    }
    case "assignees": {
      const id = row.new_identifier ?? row.old_identifier;
      const value = named(id, row.new_value ?? row.old_value, resolve.member) ?? t(`${P}.someone`);
      return say(row.new_identifier ? "assigneeAdded" : "assigneeRemoved", { value });
    }
    case "labels": {
      const id = row.new_identifier ?? row.old_identifier;
      const value = named(id, row.new_value ?? row.old_value, resolve.label) ?? "";
      return say(row.new_identifier ? "labelAdded" : "labelRemoved", { value });
    }
    case "parent":
      return row.new_value
        ? say("parentSet", { value: row.new_value })
        : say("parentRemoved", { value: row.old_value ?? "" });
    case "start_date":
    case "target_date": {
      const key = field === "start_date" ? "startDate" : "targetDate";
      return row.new_value ? say(`${key}Set`, { value: formatDay(row.new_value) }) : say(`${key}Removed`);
    }
    case "link":
      if (row.verb === "deleted") return say("linkRemoved", { value: row.old_value ?? "" });
      if (row.verb === "updated") return say("linkUpdated", { value: row.new_value ?? "" });
      return say("linkAdded", { value: row.new_value ?? "" });
    case "attachment": {
      const id = row.new_identifier ?? row.old_identifier;
      const name = named(
        id,
        attachmentName(row.verb === "deleted" ? row.old_value : row.new_value),
        resolve.attachment,
      );
      if (row.verb === "deleted")
        return name ? say("attachmentRemoved", { value: name }) : say("attachmentRemovedUnnamed");
      return name ? say("attachmentAdded", { value: name }) : say("attachmentAddedUnnamed");
    }
    case "sub_issue":
      return row.verb === "deleted"
        ? say("subIssueRemoved", { value: row.old_value ?? "" })
        : say("subIssueAdded", { value: row.new_value ?? "" });
    case "archived_at":
      return say(row.verb === "restored" || row.new_value === "restore" ? "restored" : "archived");
    case "cycles":
    case "modules":
      return describeMembership(row, field, actor, t, field === "cycles" ? resolve.cycle : resolve.module);
    default:
      if (RELATION_FIELDS.has(field)) {
        // Added: "" → the other item's key; removed: its key → "".
        const removed = row.verb === "deleted";
        const value = (removed ? row.old_value || row.new_value : row.new_value || row.old_value) ?? "";
        return say(`relation.${field}.${removed ? "removed" : "added"}`, { value });
      }
      return say("fallback", { field: field.replace(/_/g, " ") });
  }
}

/**
 * A cycle or module row (routes/cycles/membership.ts, routes/modules/membership.ts): the name in
 * old_value/new_value, the id in old_identifier/new_identifier. A cycle row has both sides when
 * the item moved from one cycle to another; a module row always has one side.
 */
function describeMembership(
  row: ActivityRow,
  field: "cycles" | "modules",
  actor: string,
  t: Translate,
  resolve: ((id: string) => string | undefined) | undefined,
): string {
  const kind = field === "cycles" ? "cycle" : "module";
  const unnamed = t(`${CM}.${kind}Unnamed`);
  const from =
    row.old_identifier || row.old_value ? (named(row.old_identifier, row.old_value, resolve) ?? unnamed) : null;
  const to =
    row.new_identifier || row.new_value ? (named(row.new_identifier, row.new_value, resolve) ?? unnamed) : null;
  if (from && to) return t(`${CM}.${kind}Moved`, { actor, from, to });
  if (to) return t(`${CM}.${kind}Added`, { actor, value: to });
  if (from) return t(`${CM}.${kind}Removed`, { actor, value: from });
  return t(`${P}.fallback`, { actor, field: kind });
}

/** A piece of a history sentence: plain text, or a cycle's or module's current name to link to it. */
export type ActivitySegment = { text: string; ref?: { kind: "cycle" | "module"; id: string } };

/** Wraps a resolved name with its id inside the sentence (control characters no name contains). */
const MARK = "\u0001";

/**
 * One history row as segments: the same sentence as describeActivity, with the cycles and
 * modules the project still lists (the resolver knows them) as references the timeline renders
 * as links; a gone one stays plain text under its recorded name.
 */
export function describeActivitySegments(row: ActivityRow, t: Translate, resolve: Resolvers = {}): ActivitySegment[] {
  if (row.field !== "cycles" && row.field !== "modules") return [{ text: describeActivity(row, t, resolve) }];
  const kind = row.field === "cycles" ? "cycle" : "module";
  const lookup = resolve[kind];
  const marked = (id: string) => {
    const name = lookup?.(id);
    return name === undefined ? undefined : `${MARK}${id}${MARK}${name}${MARK}`;
  };
  const pieces = describeActivity(row, t, { ...resolve, [kind]: marked }).split(MARK);
  // pieces: text, then (id, name, text) for each reference.
  const out: ActivitySegment[] = [];
  const push = (text: string | undefined) => {
    if (text) out.push({ text });
  };
  push(pieces[0]);
  for (let i = 1; i + 1 < pieces.length; i += 3) {
    out.push({ text: pieces[i + 1] ?? "", ref: { kind, id: pieces[i] ?? "" } });
    push(pieces[i + 2]);
  }
  return out;
}

/** Rows the timeline folds together: saving a description as you type records many. */
const FOLDED_FIELDS = new Set(["description", "name"]);
const FOLD_WINDOW_MS = 15 * 60 * 1000;

/**
 * Drop a row when the previous kept row is the same person changing the same field (description
 * or title) within 15 minutes: the history keeps every save, the timeline shows the change once
 * (the latest title wins). Rows must be in time order.
 */
export function foldActivity<T extends ActivityRow & { created_at: string; actor: string | null }>(
  rows: readonly T[],
): T[] {
  const out: T[] = [];
  for (const row of rows) {
    const last = out[out.length - 1];
    if (
      last &&
      row.field !== null &&
      FOLDED_FIELDS.has(row.field) &&
      last.field === row.field &&
      last.actor === row.actor &&
      Date.parse(row.created_at) - Date.parse(last.created_at) < FOLD_WINDOW_MS
    ) {
      out[out.length - 1] = { ...row, old_value: last.old_value };
      continue;
    }
    out.push(row);
  }
  return out;
}
