/**
 * What every part of the work-items screen reads: the project, the caller's rights, lookups of
 * the project's states, labels, members and estimate points, the display properties, and the
 * screen's actions (open the peek, open the create modal). Selection has its own context so
 * ticking a box re-renders only what shows selection.
 */

import type { DisplayProperties, StateGroup } from "@tideline/shared";
import { personName } from "@tideline/shared";
import { createContext, type ReactNode, useContext } from "react";
import type { Cycle } from "../../stores/cycles";
import type { Module } from "../../stores/modules";
import type { EstimatePoint, ProjectLabel, ProjectMeta, ProjectState } from "../../stores/project-meta";
import { activeEstimate } from "../../stores/project-meta";
import type { WorkItemInput } from "../../stores/work-items";
import type { LogoProps } from "../../stores/workspaces";
import type { BoardScope } from "./board-scope";
import type { PipelineContext } from "./pipeline";

export type MemberInfo = { id: string; name: string; email: string; avatar: string | null };

export type Lookups = {
  states: readonly ProjectState[];
  stateById: ReadonlyMap<string, ProjectState>;
  labels: readonly ProjectLabel[];
  labelById: ReadonlyMap<string, ProjectLabel>;
  members: readonly MemberInfo[];
  memberById: ReadonlyMap<string, MemberInfo>;
  /** The active estimate's points (empty when estimates are off). */
  points: readonly EstimatePoint[];
  pointById: ReadonlyMap<string, EstimatePoint>;
  /** The project's unarchived cycles and modules by name (empty while they load or when the feature is off). */
  cycles: readonly Cycle[];
  cycleById: ReadonlyMap<string, Cycle>;
  modules: readonly Module[];
  moduleById: ReadonlyMap<string, Module>;
  /** A board of several projects: its projects by name (their groups); empty on a project's board. */
  projects: readonly ProjectInfo[];
  projectById: ReadonlyMap<string, ProjectInfo>;
};

/** What a board of several projects shows of each project (group headers, keys). */
export type ProjectInfo = { id: string; name: string; identifier: string; logo_props?: LogoProps | null };

/** Cycles or modules by name, case-insensitive (the order of their groups on the server). */
function sortedByName<T extends { id: string; name: string }>(list: readonly T[] | undefined): T[] {
  return [...(list ?? [])].sort((a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

export function buildLookups(
  meta: ProjectMeta | undefined,
  cycleList?: readonly Cycle[],
  moduleList?: readonly Module[],
): Lookups {
  const states = meta?.states ?? [];
  const labels = meta?.labels ?? [];
  const members: MemberInfo[] = (meta?.members ?? [])
    .map((m) => ({
      id: m.member,
      name: personName(m.member_details),
      email: m.member_details.email,
      avatar: m.member_details.avatar_url,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const points = [...(activeEstimate(meta)?.points ?? [])].sort((a, b) => a.key - b.key);
  const cycles = sortedByName(cycleList?.filter((c) => !c.archived_at));
  const modules = sortedByName(moduleList?.filter((m) => !m.archived_at));
  return {
    states,
    stateById: new Map(states.map((s) => [s.id, s])),
    labels,
    labelById: new Map(labels.map((l) => [l.id, l])),
    members,
    memberById: new Map(members.map((m) => [m.id, m])),
    points,
    pointById: new Map(points.map((p) => [p.id, p])),
    cycles,
    cycleById: new Map(cycles.map((c) => [c.id, c])),
    modules,
    moduleById: new Map(modules.map((m) => [m.id, m])),
    projects: [],
    projectById: new Map(),
  };
}

/**
 * One project's lookups for every project of a board of several projects: the union of their
 * states (display order per project, projects by name), labels, members (once each), points,
 * cycles and modules, and the projects themselves.
 */
export function mergeLookups(parts: readonly Lookups[], projectList: readonly ProjectInfo[]): Lookups {
  const states = parts.flatMap((l) => l.states);
  const labels = parts.flatMap((l) => l.labels);
  const memberById = new Map<string, MemberInfo>();
  for (const part of parts) for (const m of part.members) if (!memberById.has(m.id)) memberById.set(m.id, m);
  const members = [...memberById.values()].sort((a, b) => a.name.localeCompare(b.name));
  const points = parts.flatMap((l) => l.points);
  const cycles = sortedByName(parts.flatMap((l) => l.cycles));
  const modules = sortedByName(parts.flatMap((l) => l.modules));
  const projects = sortedByName(projectList);
  return {
    states,
    stateById: new Map(states.map((s) => [s.id, s])),
    labels,
    labelById: new Map(labels.map((l) => [l.id, l])),
    members,
    memberById,
    points,
    pointById: new Map(points.map((p) => [p.id, p])),
    cycles,
    cycleById: new Map(cycles.map((c) => [c.id, c])),
    modules,
    moduleById: new Map(modules.map((m) => [m.id, m])),
    projects,
    projectById: new Map(projects.map((p) => [p.id, p])),
  };
}

export function pipelineContext(lookups: Lookups, today: string): PipelineContext {
  return {
    states: lookups.states.map((s) => ({ id: s.id, group: s.group as StateGroup })),
    labels: lookups.labels,
    members: lookups.members,
    estimatePoints: lookups.points,
    cycles: lookups.cycles.map((c) => ({ id: c.id, name: c.name, status: c.status })),
    modules: lookups.modules.map((m) => ({ id: m.id, name: m.name })),
    projects: lookups.projects.length ? lookups.projects : undefined,
    today,
  };
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Wrap a translate function with a cache for option-less keys (one per language). */
export function cachedTranslate(t: (key: string, options?: Record<string, unknown>) => unknown): Translate {
  const cache = new Map<string, string>();
  return (key, options) => {
    if (options) return String(t(key, options));
    let text = cache.get(key);
    if (text === undefined) {
      text = String(t(key));
      cache.set(key, text);
    }
    return text;
  };
}

export type WorkItemsContextValue = {
  /**
   * The screen's translate function: rows read it here instead of each subscribing to i18n, and
   * texts without options are cached (a scrolled list asks for the same few labels thousands of times).
   */
  t: Translate;
  slug: string;
  projectId: string;
  identifier: string;
  /** Member or above: may create and change work items. */
  canEdit: boolean;
  /** Project admin: may delete anyone's items. */
  isAdmin: boolean;
  userId: string | null;
  lookups: Lookups;
  props: DisplayProperties;
  today: string;
  peekId: string | null;
  openPeek: (id: string) => void;
  openCreate: (prefill?: Partial<WorkItemInput>) => void;
  /** The board's scope: the whole project, one cycle or one module. */
  scope: BoardScope;
  /** What a new item created on this board starts with (its cycle or module); group prefills go over it. */
  scopeDefaults: Partial<WorkItemInput>;
  /** The key of this board's view settings (stores/work-item-view viewKeyOf): filters and display menus save there. */
  viewKey: string;
  /** False when the board takes no new items (e.g. a completed cycle): no create, no quick add. */
  canAdd: boolean;
  /**
   * Set on a board of several projects' items (a workspace view, a member's profile): the context
   * of one item's project (its identifier, lookups and the caller's rights there). Rows read it
   * through <ItemProject>; the board's own context then holds the union of every project's
   * lookups (filters, grouping) and `projectId` is "".
   */
  forProject?: (projectId: string) => WorkItemsContextValue;
  /** The item's project, in a project's context on a board of several projects (its Project column). */
  project?: ProjectInfo;
  /** No ticking of items (a board of several projects has no bulk bar: bulk calls are per project). */
  noSelection?: boolean;
};

export const WorkItemsContext = createContext<WorkItemsContextValue | null>(null);

/**
 * The context of one item's own project around its row, card or bar, on a board of several
 * projects; on a one-project board, the children as they are.
 */
export function ItemProject({ projectId, children }: { projectId: string; children: ReactNode }): ReactNode {
  const ctx = useWorkItemsContext();
  if (!ctx.forProject || ctx.projectId === projectId) return children;
  return <WorkItemsContext.Provider value={ctx.forProject(projectId)}>{children}</WorkItemsContext.Provider>;
}

export function useWorkItemsContext(): WorkItemsContextValue {
  const value = useContext(WorkItemsContext);
  if (!value) throw new Error("useWorkItemsContext outside the work-items screen");
  return value;
}

export type SelectionValue = {
  selected: ReadonlySet<string>;
  /** Tick or untick; with `range`, everything between the last ticked item and this one in `order`. */
  toggle: (id: string, range?: { order: readonly string[] }) => void;
  setAll: (ids: readonly string[], on: boolean) => void;
  clear: () => void;
};

export const SelectionContext = createContext<SelectionValue>({
  selected: new Set(),
  toggle: () => undefined,
  setAll: () => undefined,
  clear: () => undefined,
});

export function useSelection(): SelectionValue {
  return useContext(SelectionContext);
}
