/**
 * Which properties a kanban card or a list row shows, and in which order: only those with a
 * value (no empty placeholders — set an empty one in the peek or the spreadsheet), each date at
 * most once, in the order of the shared display properties (DISPLAY_PROPERTIES) except that the
 * modules and cycle chips come before the created/updated dates (metadata closes the row). Pure,
 * so unit-tested; properties.tsx renders what it returns.
 */
import { DISPLAY_PROPERTIES, type DisplayProperties, type DisplayProperty } from "@tideline/shared";
import type { WorkItem } from "../../stores/work-items";
import type { BoardScope } from "./board-scope";

/** The display properties a card or row can show (the key has its own place; work-item types
 * are not built yet, so an item has no value for them). */
export type ShownProperty = Exclude<DisplayProperty, "key" | "issue_type">;

/** Display-property order with the modules and cycle chips moved before the dates of record. */
const ORDER: readonly DisplayProperty[] = [
  ...DISPLAY_PROPERTIES.filter((p) => p !== "modules" && p !== "cycle" && p !== "created_on" && p !== "updated_on"),
  "modules",
  "cycle",
  "created_on",
  "updated_on",
];

type Item = Pick<
  WorkItem,
  | "state_id"
  | "priority"
  | "assignee_ids"
  | "label_ids"
  | "start_date"
  | "target_date"
  | "estimate_point"
  | "sub_issues_count"
  | "attachment_count"
  | "link_count"
  | "created_at"
  | "updated_at"
  | "cycle_id"
  | "module_ids"
>;

/** What the project knows of an item's references (a deleted label or point shows nothing). */
export type ShownContext = {
  hasState: (id: string) => boolean;
  hasLabel: (id: string) => boolean;
  /** Undefined when the project has estimates off. */
  hasPoint: ((id: string) => boolean) | undefined;
  /** Undefined when the project has cycles off; true for any id while the cycles load. */
  hasCycle?: ((id: string) => boolean) | undefined;
  /** Undefined when the project has modules off; true for any id while the modules load. */
  hasModule?: ((id: string) => boolean) | undefined;
  /** The board's scope: a cycle's board hides the cycle chip, a module's board its own module. */
  scope?: BoardScope;
};

/**
 * Does the board's scope make a property redundant on every row? On a cycle's board every item is
 * in that cycle, so its Cycle chip (and spreadsheet column) says nothing. A module's board keeps
 * the modules chip, for the item's other modules (moduleIdsShown).
 */
export function scopeHidesProperty(scope: BoardScope | undefined, prop: DisplayProperty): boolean {
  return scope?.kind === "cycle" && prop === "cycle";
}

/** The modules a chip names on a board: on a module's board, the item's OTHER modules. */
export function moduleIdsShown(ids: readonly string[], scope: BoardScope | undefined): readonly string[] {
  if (scope?.kind !== "module") return ids;
  return ids.includes(scope.moduleId) ? ids.filter((id) => id !== scope.moduleId) : ids;
}

const day = (value: string | null | undefined) => (value ? value.slice(0, 10) : null);

/**
 * The properties to show for `item` under the enabled `props`, in display-property order.
 * Dates: the start and due dates when set; the created date; the updated date only when it
 * falls on another day than the created one (a card never shows the same date twice).
 */
export function shownProperties(item: Item, props: DisplayProperties, ctx: ShownContext): ShownProperty[] {
  const out: ShownProperty[] = [];
  const created = day(item.created_at);
  for (const prop of ORDER) {
    if (!props[prop] || scopeHidesProperty(ctx.scope, prop)) continue;
    switch (prop) {
      case "assignee":
        if (item.assignee_ids.length > 0) out.push(prop);
        break;
      case "start_date":
        if (item.start_date) out.push(prop);
        break;
      case "due_date":
        if (item.target_date) out.push(prop);
        break;
      case "labels":
        if (item.label_ids.some(ctx.hasLabel)) out.push(prop);
        break;
      case "priority":
        if (item.priority !== "none") out.push(prop);
        break;
      case "state":
        if (item.state_id && ctx.hasState(item.state_id)) out.push(prop);
        break;
      case "sub_issue_count":
        if (item.sub_issues_count > 0) out.push(prop);
        break;
      case "attachment_count":
        if (item.attachment_count > 0) out.push(prop);
        break;
      case "link":
        if (item.link_count > 0) out.push(prop);
        break;
      case "estimate":
        if (item.estimate_point && ctx.hasPoint?.(item.estimate_point)) out.push(prop);
        break;
      case "created_on":
        if (created) out.push(prop);
        break;
      case "updated_on": {
        const updated = day(item.updated_at);
        if (updated && (updated !== created || !props.created_on)) out.push(prop);
        break;
      }
      case "modules":
        if (ctx.hasModule && moduleIdsShown(item.module_ids, ctx.scope).some(ctx.hasModule)) out.push(prop);
        break;
      case "cycle":
        if (item.cycle_id && ctx.hasCycle?.(item.cycle_id)) out.push(prop);
        break;
      default:
        // key (shown above the name), issue_type (not built yet).
        break;
    }
  }
  return out;
}
