/**
 * Work-item filters (product-domain §3, §9; calls-errors-sync §5): parsing of the list's
 * filter parameters and an in-memory evaluator with exactly the semantics the server's SQL
 * applies, so the client can filter its local cache and get the server's answer.
 *
 * Semantics:
 * - values of one filter are alternatives (any of them matches); different filters all apply;
 * - many-valued properties (assignees, labels) match when the item has any of the values;
 *   the value "None" matches items without any (for state, created_by: without a value);
 * - dates: "2026-01-01;after" means on or after, "2026-02-01;before" on or before, a bare
 *   "2026-01-05" exactly that day; relative "1_weeks;after;fromnow" / "2_months;before;ago"
 *   count a week as 7 days and a month as 30 days from today. Several terms all apply (a
 *   range). Items without the date never match a date filter;
 * - cycle: the item's cycle_id ("None": in no cycle); module: any of the item's module_ids
 *   ("None": in no module);
 * - mentions, issue_type, team_project: accepted and ignored (not built yet).
 */
import { isPriority, PRIORITIES, type Priority } from "../constants/issues.ts";
import { STATE_GROUPS, type StateGroup } from "../constants/project.ts";

export const NONE_VALUE = "None";

/** Filters that hold ids (or "None"). */
const ID_FILTERS = ["state", "assignees", "created_by", "labels", "cycle", "module", "project", "subscriber"] as const;
/** Filters accepted but not applied yet. */
const IGNORED_FILTERS = ["mentions", "issue_type", "team_project"] as const;
const DATE_FILTERS = ["start_date", "target_date"] as const;

export const ISSUE_FILTER_KEYS = [
  "priority",
  "state",
  "state_group",
  "assignees",
  "mentions",
  "created_by",
  "labels",
  "cycle",
  "module",
  "start_date",
  "target_date",
  "project",
  "team_project",
  "subscriber",
  "issue_type",
] as const;
export type IssueFilterKey = (typeof ISSUE_FILTER_KEYS)[number];

export type DateTerm =
  | { kind: "absolute"; op: "after" | "before" | "on"; date: string }
  | {
      kind: "relative";
      op: "after" | "before";
      amount: number;
      unit: "weeks" | "months";
      direction: "fromnow" | "ago";
    };

/** A resolved date condition: the value must be on/after, on/before or on `date`. */
export type DateCondition = { op: "after" | "before" | "on"; date: string };

export type IssueFilters = {
  priority?: Priority[];
  state?: string[];
  state_group?: StateGroup[];
  assignees?: string[];
  mentions?: string[];
  created_by?: string[];
  labels?: string[];
  cycle?: string[];
  module?: string[];
  project?: string[];
  team_project?: string[];
  subscriber?: string[];
  issue_type?: string[];
  start_date?: DateTerm[];
  target_date?: DateTerm[];
};

export type ParsedIssueFilters = { filters: IssueFilters; errors: Record<string, string[]> };

/** What the evaluator reads of a work item (the API's presented issue fits). */
export type FilterableIssue = {
  priority: string;
  state_id: string | null;
  state__group?: string | null;
  assignee_ids: readonly string[];
  label_ids: readonly string[];
  created_by: string | null;
  start_date: string | null;
  target_date: string | null;
  project_id: string;
  parent_id?: string | null;
  cycle_id?: string | null;
  module_ids?: readonly string[];
  sequence_id?: number;
  name?: string;
  /** Only the server knows subscribers: a subscriber filter matches nothing without this. */
  subscriber_ids?: readonly string[];
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RELATIVE = /^(\d{1,4})_(weeks|months)$/;

// ───────────── dates ─────────────

/** A yyyy-MM-dd date read from the first 10 characters of `value` (product-domain §5), or null. */
export function toDateOnly(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const head = value.slice(0, 10);
  const m = DATE.exec(head);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  return head;
}

/** The calendar day of `now`: in `timeZone` when given (IANA name), else in this runtime's zone. */
export function calendarDate(now: Date, timeZone?: string): string {
  if (timeZone) {
    try {
      const parts = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }).formatToParts(now);
      const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
      return `${get("year")}-${get("month")}-${get("day")}`;
    } catch {
      // An unknown zone name falls back to UTC rather than failing the request.
      return now.toISOString().slice(0, 10);
    }
  }
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `date` (yyyy-MM-dd) moved by `days`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function parseDateTerm(raw: string): DateTerm | null {
  const parts = raw.split(";").map((p) => p.trim());
  const [head = "", op, direction] = parts;
  if (parts.length > 3) return null;
  const rel = RELATIVE.exec(head);
  if (rel) {
    if (parts.length !== 3) return null;
    if (op !== "after" && op !== "before") return null;
    if (direction !== "fromnow" && direction !== "ago") return null;
    return { kind: "relative", op, amount: Number(rel[1]), unit: rel[2] as "weeks" | "months", direction };
  }
  const date = toDateOnly(head);
  if (!date) return null;
  if (parts.length === 1) return { kind: "absolute", op: "on", date };
  if (parts.length !== 2 || (op !== "after" && op !== "before")) return null;
  return { kind: "absolute", op, date };
}

export function serializeDateTerm(term: DateTerm): string {
  if (term.kind === "relative") return `${term.amount}_${term.unit};${term.op};${term.direction}`;
  return term.op === "on" ? term.date : `${term.date};${term.op}`;
}

/** The day a term compares with, `today` being yyyy-MM-dd. Weeks are 7 days, months 30. */
export function resolveDateTerm(term: DateTerm, today: string): DateCondition {
  if (term.kind === "absolute") return { op: term.op, date: term.date };
  const days = term.amount * (term.unit === "weeks" ? 7 : 30);
  return { op: term.op, date: addDays(today, term.direction === "fromnow" ? days : -days) };
}

export function matchesDateCondition(value: string | null | undefined, condition: DateCondition): boolean {
  const day = toDateOnly(value);
  if (!day) return false;
  if (condition.op === "after") return day >= condition.date;
  if (condition.op === "before") return day <= condition.date;
  return day === condition.date;
}

// ───────────── parsing ─────────────

/** Split a query value (comma list) or a stored array into trimmed, non-empty, unique values. */
function listOf(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (item === null || item === undefined) continue;
    if (typeof item !== "string" && typeof item !== "number") return null;
    for (const piece of String(item).split(",")) {
      const v = piece.trim();
      if (v && !out.includes(v)) out.push(v);
    }
  }
  return out;
}

/**
 * Read filters from query parameters (comma-separated strings) or stored filters (arrays).
 * Unknown keys are not looked at; an invalid value is reported in `errors` under its key.
 * An empty value means "no filter".
 */
export function parseIssueFilters(input: Record<string, unknown>): ParsedIssueFilters {
  const filters: IssueFilters = {};
  const errors: Record<string, string[]> = {};
  const fail = (key: string, message: string) => {
    errors[key] = [...(errors[key] ?? []), message];
  };
  for (const key of ISSUE_FILTER_KEYS) {
    if (!(key in input)) continue;
    const raw = input[key];
    if (raw === undefined || raw === null || raw === "") continue;
    const values = listOf(raw);
    if (values === null) {
      fail(key, "Expected a comma-separated list.");
      continue;
    }
    if (values.length === 0) continue;
    if (key === "priority") {
      const bad = values.filter((v) => !isPriority(v));
      if (bad.length) fail(key, `Unknown priority: ${bad.join(", ")}. Use ${PRIORITIES.join(", ")}.`);
      else filters.priority = values as Priority[];
    } else if (key === "state_group") {
      const bad = values.filter((v) => !(STATE_GROUPS as readonly string[]).includes(v));
      if (bad.length) fail(key, `Unknown state group: ${bad.join(", ")}. Use ${STATE_GROUPS.join(", ")}.`);
      else filters.state_group = values as StateGroup[];
    } else if ((DATE_FILTERS as readonly string[]).includes(key)) {
      const terms: DateTerm[] = [];
      for (const v of values) {
        const term = parseDateTerm(v);
        if (term) terms.push(term);
        else
          fail(
            key,
            `Invalid date filter "${v}": use yyyy-MM-dd;after, yyyy-MM-dd;before, yyyy-MM-dd or N_weeks|N_months;after|before;fromnow|ago.`,
          );
      }
      if (terms.length === values.length) filters[key as "start_date" | "target_date"] = terms;
    } else if ((IGNORED_FILTERS as readonly string[]).includes(key)) {
      filters[key as (typeof IGNORED_FILTERS)[number]] = values;
    } else if ((ID_FILTERS as readonly string[]).includes(key)) {
      const allowsNone = key !== "subscriber" && key !== "project";
      const bad = values.filter((v) => !UUID.test(v) && !(allowsNone && v === NONE_VALUE));
      if (bad.length) fail(key, `Invalid id: ${bad.join(", ")}.`);
      else filters[key as (typeof ID_FILTERS)[number]] = values.map((v) => (v === NONE_VALUE ? v : v.toLowerCase()));
    }
  }
  return { filters, errors };
}

/** Filters as query parameters (comma lists), the inverse of parseIssueFilters. */
export function serializeIssueFilters(filters: IssueFilters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ISSUE_FILTER_KEYS) {
    const value = filters[key];
    if (!value || value.length === 0) continue;
    out[key] = (value as readonly (string | DateTerm)[])
      .map((v) => (typeof v === "string" ? v : serializeDateTerm(v)))
      .join(",");
  }
  return out;
}

/** True when no filter would restrict anything. */
export function hasActiveFilters(filters: IssueFilters): boolean {
  return ISSUE_FILTER_KEYS.some(
    (key) => !(IGNORED_FILTERS as readonly string[]).includes(key) && (filters[key]?.length ?? 0) > 0,
  );
}

// ───────────── evaluation ─────────────

function anyOf(values: readonly string[] | undefined, itemValues: readonly string[]): boolean {
  if (!values || values.length === 0) return true;
  if (values.includes(NONE_VALUE) && itemValues.length === 0) return true;
  return itemValues.some((v) => values.includes(v));
}

/** anyOf for a single value, without building an array per item (the board runs it 10,000 × per change). */
function oneOf(values: readonly string[] | undefined, itemValue: string | null | undefined): boolean {
  if (!values || values.length === 0) return true;
  return itemValue ? values.includes(itemValue) : values.includes(NONE_VALUE);
}

function todayOf(now: Date | string): string {
  if (typeof now === "string") {
    const day = toDateOnly(now);
    if (!day) throw new Error(`Invalid day: ${now}`);
    return day;
  }
  return calendarDate(now);
}

/**
 * Does `issue` pass `filters`? `now` is today as yyyy-MM-dd (what the server uses: the project's
 * day) or a moment read as this runtime's local day.
 */
export function matchesFilters(issue: FilterableIssue, filters: IssueFilters, now: Date | string): boolean {
  if (filters.priority?.length && !filters.priority.includes(issue.priority as Priority)) return false;
  if (!oneOf(filters.state, issue.state_id)) return false;
  if (filters.state_group?.length && !filters.state_group.includes(issue.state__group as StateGroup)) return false;
  if (!anyOf(filters.assignees, issue.assignee_ids)) return false;
  if (!oneOf(filters.created_by, issue.created_by)) return false;
  if (!anyOf(filters.labels, issue.label_ids)) return false;
  if (!oneOf(filters.cycle, issue.cycle_id ?? null)) return false;
  if (filters.module?.length && !anyOf(filters.module, issue.module_ids ?? [])) return false;
  if (!oneOf(filters.project, issue.project_id)) return false;
  if (filters.subscriber?.length && !anyOf(filters.subscriber, issue.subscriber_ids ?? [])) return false;
  for (const key of DATE_FILTERS) {
    const terms = filters[key];
    if (!terms?.length) continue;
    const today = todayOf(now);
    for (const term of terms) {
      if (!matchesDateCondition(issue[key], resolveDateTerm(term, today))) return false;
    }
  }
  return true;
}

/** The display filters that narrow the list: type (active/backlog) and sub_issue. */
export type DisplayScope = { type?: string | null; sub_issue?: boolean | null };

export function matchesDisplayScope(issue: FilterableIssue, scope: DisplayScope): boolean {
  if (scope.type === "active" && issue.state__group !== "unstarted" && issue.state__group !== "started") return false;
  if (scope.type === "backlog" && issue.state__group !== "backlog") return false;
  if (scope.sub_issue === false && issue.parent_id) return false;
  return true;
}

/**
 * The list's ?search=: the name contains the text (case-insensitive), or the text is a
 * sequence number ("12", "#12" or "WEB-12" — the identifier must then be the project's).
 */
export function matchesSearch(issue: FilterableIssue, search: string, projectIdentifier?: string): boolean {
  const query = search.trim();
  if (!query) return true;
  if ((issue.name ?? "").toLowerCase().includes(query.toLowerCase())) return true;
  const seq = parseSequenceSearch(query);
  if (!seq || issue.sequence_id === undefined) return false;
  if (seq.identifier && projectIdentifier && seq.identifier !== projectIdentifier.toUpperCase()) return false;
  return issue.sequence_id === seq.sequence;
}

/** "12", "#12", "WEB-12" → the number (and identifier); anything else → null. */
export function parseSequenceSearch(query: string): { identifier: string | null; sequence: number } | null {
  const m = /^(?:#|([A-Za-z0-9]+)-)?(\d{1,9})$/.exec(query.trim());
  if (!m) return null;
  return { identifier: m[1] ? m[1].toUpperCase() : null, sequence: Number(m[2]) };
}
