/**
 * Modules of each project (GET projects/{id}/modules/): the list every module screen, picker and
 * filter reads, kept fresh by the project's live channel (`module.*` events carry the module with
 * fresh counters, without the caller's favorite flag). Only these actions call the modules API.
 */
import { type DomainEvent, EMPTY_PROGRESS_COUNTERS, type ModuleStatus, type ProgressCounters } from "@tideline/shared";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { api, errorMessage, fieldErrors, HTTPError } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { loadWithLocalCopy, sameRows, writeListsThrough } from "../lib/local-db/meta";
import { serverAfterCopy } from "../lib/local-db/preload";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { markEntityFavorite, settleFavorites } from "./favorites";
import { metaFromLocalCopy } from "./project-meta";
import { getWorkItem, upsertWorkItems, type WorkItem, getProjectWorkItems as workItemsOf } from "./work-items";
import type { LogoProps } from "./workspaces";

/** A module as the API presents it (live-server/src/routes/modules/presenter.ts). */
export type Module = ProgressCounters & {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  description: string;
  description_text: string;
  description_html: string;
  start_date: string | null;
  target_date: string | null;
  status: ModuleStatus;
  lead_id: string | null;
  member_ids: string[];
  view_props: Record<string, unknown>;
  sort_order: number;
  external_source: string | null;
  external_id: string | null;
  logo_props: Record<string, unknown>;
  /** The caller's own star; events leave it out (they go to every member). */
  is_favorite?: boolean;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
};

export type ModuleListStatus = "loading" | "ready" | "error";

export type ProjectModules = {
  status: ModuleListStatus;
  /** The project's unarchived modules (favorites first, then newest, as the server lists them). */
  list: Module[];
};

/** A module link (presentModuleLink). */
export type ModuleLink = {
  id: string;
  url: string;
  title: string | null;
  metadata: Record<string, unknown>;
  module: string;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  created_by_detail: { id: string; display_name: string; avatar_url?: string | null } | null;
};

export type AssigneeDistribution = {
  assignee_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
};
export type LabelDistribution = { label_id: string | null; label_name: string | null; color: string | null };
type IssueCounts = { total_issues: number; completed_issues: number; pending_issues: number };
type EstimateSums = { total_estimates: number; completed_estimates: number; pending_estimates: number };

export type ModuleDistribution<C> = {
  assignees: (AssigneeDistribution & C)[];
  labels: (LabelDistribution & C)[];
  /** Day (yyyy-MM-dd) → pending items that day; null after today. {} without both dates. */
  completion_chart: Record<string, number | null>;
  /** The same days with their scope (the chart's scope line); [] without both dates. */
  progress?: { date: string; scope: number | null }[];
};

/** GET modules/{id}/: the module, its links and the breakdowns. */
export type ModuleDetail = Module & {
  link_module: ModuleLink[];
  sub_issues: number;
  distribution: ModuleDistribution<IssueCounts>;
  /** Empty unless the project's estimate counts points. */
  estimate_distribution: ModuleDistribution<EstimateSums> | Record<string, never>;
};

export type DetailEntry = { status: "loading" | "ready" | "missing" | "error"; detail: ModuleDetail | null };

export const modules = defineStore(() => ({
  byProject: {} as Record<string, ProjectModules>,
  /** Module details by module id (the module screen's panel). */
  details: {} as Record<string, DetailEntry>,
  /** Archived modules per project (the archive screen). */
  archived: {} as Record<string, ProjectModules>,
}));

export const modulesPath = (slug: string, projectId: string) =>
  `/api/workspaces/${slug}/projects/${projectId}/modules/`;

// A change of the list (created, edited, archived here or by a live event) reaches the local
// copy at once, so the next visit paints it rather than what the last load saw.
writeListsThrough(modules, "byProject", (projectId) => {
  const entry = modules.byProject[projectId];
  return entry?.status === "ready" ? { modules: entry.list } : null;
});

const inflight = new Map<string, Promise<void>>();

/** Load (or, with `force`, reload) a project's modules; concurrent calls share one request. */
export function loadModules(slug: string, projectId: string, force = false): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  const current = modules.byProject[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) modules.byProject[projectId] = { status: "loading", list: [] };
  // The local database's copy paints first when there is one; the server's answer replaces it.
  const promise = loadWithLocalCopy(
    projectId,
    ["modules"],
    // A list shown (or about to be) from the local copy: the server is asked once the board has painted.
    serverAfterCopy(projectId, ["modules"], metaFromLocalCopy(projectId))
      .then(() => api.get(modulesPath(slug, projectId)).json<Module[]>())
      .then((list) => ({ modules: list })),
    (lists) => {
      // The same list again (the server confirming the stored copy): keep what is shown.
      const shown = modules.byProject[projectId];
      if (shown?.status === "ready" && sameRows(shown.list, lists.modules)) return;
      modules.byProject[projectId] = { status: "ready", list: lists.modules };
    },
    !current,
  )
    .catch((error: unknown) => {
      const entry = modules.byProject[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

/** Insert or replace one module of a project's list (keeps the caller's favorite flag). */
export function putModule(module: Module): void {
  const entry = modules.byProject[module.project_id];
  if (!entry) return;
  const index = entry.list.findIndex((m) => m.id === module.id);
  if (module.archived_at) {
    if (index >= 0) entry.list.splice(index, 1);
    return;
  }
  if (index >= 0) {
    const previous = entry.list[index] as Module;
    // Over the previous: a restricted guest's events come without counts (they keep their own).
    entry.list[index] = { ...previous, ...module, is_favorite: module.is_favorite ?? previous.is_favorite };
  } else entry.list.unshift({ ...EMPTY_PROGRESS_COUNTERS, ...module });
}

export function removeModule(projectId: string, moduleId: string): void {
  const entry = modules.byProject[projectId];
  if (!entry) return;
  const index = entry.list.findIndex((m) => m.id === moduleId);
  if (index >= 0) entry.list.splice(index, 1);
}

/** The module's counters and fields also refresh an open detail (its links and breakdowns stay). */
function putDetail(module: Module): void {
  const entry = modules.details[module.id];
  if (!entry?.detail) return;
  entry.detail = { ...entry.detail, ...module, is_favorite: module.is_favorite ?? entry.detail.is_favorite };
}

/** A `module.*` event (not `module.link.*`) from the project's channel; true when it was one. */
export function applyModuleEvent(event: DomainEvent): boolean {
  if (!event.type.startsWith("module.") || event.type.startsWith("module.link.") || !event.project_id) return false;
  if (event.type === "module.deleted" || event.type === "module.archived") {
    removeModule(event.project_id, event.entity_id);
    const entry = modules.details[event.entity_id];
    if (entry && event.type === "module.deleted")
      modules.details[event.entity_id] = { status: "missing", detail: null };
    else if (entry?.detail) entry.detail = { ...entry.detail, archived_at: new Date().toISOString() };
  } else {
    putModule(event.data as unknown as Module);
    putDetail(event.data as unknown as Module);
  }
  return true;
}

/** A `module.link.*` event: keeps an open detail's links in step. */
export function applyModuleLinkEvent(event: DomainEvent): void {
  if (!event.type.startsWith("module.link.")) return;
  const link = event.data as unknown as ModuleLink | undefined;
  const moduleId = link?.module;
  if (moduleId) noteLinkChange(moduleId);
  for (const entry of Object.values(modules.details)) {
    const detail = entry.detail;
    if (!detail || (moduleId && detail.id !== moduleId)) continue;
    const index = detail.link_module.findIndex((l) => l.id === event.entity_id);
    if (event.type === "module.link.deleted") {
      if (index >= 0) detail.link_module.splice(index, 1);
    } else if (link) {
      if (index >= 0) detail.link_module[index] = link;
      else detail.link_module.unshift(link);
    }
  }
}

/** A project's modules as a snapshot (empty while loading). */
export function useProjectModules(projectId: string): readonly Module[] {
  const snap = useSnapshot(modules);
  return (snap.byProject[projectId]?.list ?? []) as readonly Module[];
}

// ───────────── actions ─────────────

const projectBase = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
const modulePath = (slug: string, projectId: string, moduleId: string) => `${modulesPath(slug, projectId)}${moduleId}/`;

/** The fields the create / edit form sends. */
export type ModuleInput = {
  name: string;
  description?: string;
  start_date?: string | null;
  target_date?: string | null;
  status?: ModuleStatus;
  lead_id?: string | null;
  member_ids?: string[];
  logo_props?: Record<string, unknown>;
  sort_order?: number;
};

/** A form's answer: the module, or the message and per-field errors to show on the form. */
export type FormResult = { ok: true; module: Module } | { ok: false; message: string; fields: Record<string, string> };

async function formFailure(error: unknown): Promise<FormResult> {
  const fields = await fieldErrors(error);
  if (fields.lead && !fields.lead_id) fields.lead_id = fields.lead;
  return { ok: false, message: await errorMessage(error), fields };
}

/** Create a module (the form waits for the answer: a name taken is shown on the field). */
export async function createModule(slug: string, projectId: string, input: ModuleInput): Promise<FormResult> {
  try {
    const module = await api
      .post(modulesPath(slug, projectId), { json: input, headers: mutationHeaders() })
      .json<Module>();
    putModule(module);
    return { ok: true, module };
  } catch (error) {
    return formFailure(error);
  }
}

/** Edit through the form: waits for the answer, then stores it. */
export async function saveModule(
  slug: string,
  projectId: string,
  moduleId: string,
  patch: Partial<ModuleInput>,
): Promise<FormResult> {
  try {
    const module = await api
      .patch(modulePath(slug, projectId, moduleId), { json: patch, headers: mutationHeaders() })
      .json<Module>();
    putModule(module);
    putDetail(module);
    return { ok: true, module };
  } catch (error) {
    return formFailure(error);
  }
}

function findModule(projectId: string, moduleId: string): Module | undefined {
  return (
    modules.byProject[projectId]?.list.find((m) => m.id === moduleId) ?? modules.details[moduleId]?.detail ?? undefined
  );
}

/** Change fields at once (status picker, board drag, timeline drag, panel pickers); undone if refused. */
export async function updateModule(
  slug: string,
  projectId: string,
  moduleId: string,
  patch: Partial<ModuleInput>,
): Promise<Module | undefined> {
  const before = findModule(projectId, moduleId);
  const answer = await optimistic({
    apply: () => {
      if (!before) return () => undefined;
      const previous = { ...before };
      const next = { ...before, ...patch } as Module;
      putModule(next);
      putDetail(next);
      return () => {
        putModule(previous);
        putDetail(previous);
      };
    },
    call: () =>
      api.patch(modulePath(slug, projectId, moduleId), { json: patch, headers: mutationHeaders() }).json<Module>(),
    error: "Couldn't update the module",
  });
  if (answer) {
    putModule(answer);
    putDetail(answer);
  }
  return answer;
}

/** Delete a module (its work items leave it); true when done. */
export async function deleteModule(slug: string, projectId: string, moduleId: string): Promise<boolean> {
  const list = modules.byProject[projectId]?.list;
  const index = list?.findIndex((m) => m.id === moduleId) ?? -1;
  const archivedList = modules.archived[projectId]?.list;
  const archivedIndex = archivedList?.findIndex((m) => m.id === moduleId) ?? -1;
  const ok = await optimistic({
    apply: () => {
      const removed = index >= 0 ? list?.splice(index, 1)[0] : undefined;
      const removedArchived = archivedIndex >= 0 ? archivedList?.splice(archivedIndex, 1)[0] : undefined;
      const touched = dropMembership(projectId, moduleId);
      return () => {
        if (removed) list?.splice(index, 0, removed);
        if (removedArchived) archivedList?.splice(archivedIndex, 0, removedArchived);
        upsertWorkItems(projectId, touched);
      };
    },
    call: () => api.delete(modulePath(slug, projectId, moduleId), { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't delete the module",
  });
  if (ok) modules.details[moduleId] = { status: "missing", detail: null };
  return Boolean(ok);
}

/** Take a module out of every cached item's module_ids; returns the items as they were. */
function dropMembership(projectId: string, moduleId: string): WorkItem[] {
  const before: WorkItem[] = [];
  const after: WorkItem[] = [];
  for (const item of projectItems(projectId)) {
    if (!item.module_ids.includes(moduleId)) continue;
    before.push(item);
    after.push({ ...item, module_ids: item.module_ids.filter((id) => id !== moduleId) });
  }
  upsertWorkItems(projectId, after);
  return before;
}

const projectItems = (projectId: string): WorkItem[] => workItemsOf(projectId);

/** Archive a completed or cancelled module; true when done. */
export async function archiveModule(slug: string, projectId: string, moduleId: string): Promise<boolean> {
  const list = modules.byProject[projectId]?.list;
  const index = list?.findIndex((m) => m.id === moduleId) ?? -1;
  const answer = await optimistic({
    apply: () => {
      const removed = index >= 0 ? list?.splice(index, 1)[0] : undefined;
      return () => {
        if (removed) list?.splice(index, 0, removed);
      };
    },
    call: () =>
      api
        .post(`${modulePath(slug, projectId, moduleId)}archive/`, { headers: mutationHeaders() })
        .json<{ archived_at: string }>(),
    error: "Couldn't archive the module",
  });
  if (!answer) return false;
  const detail = modules.details[moduleId]?.detail;
  if (detail) detail.archived_at = answer.archived_at;
  if (modules.archived[projectId]) void loadArchivedModules(slug, projectId, true).catch(() => undefined);
  return true;
}

/** Restore an archived module; true when done. */
export async function restoreModule(slug: string, projectId: string, moduleId: string): Promise<boolean> {
  const list = modules.archived[projectId]?.list;
  const index = list?.findIndex((m) => m.id === moduleId) ?? -1;
  const ok = await optimistic({
    apply: () => {
      const removed = index >= 0 ? list?.splice(index, 1)[0] : undefined;
      if (removed) putModule({ ...removed, archived_at: null });
      return () => {
        if (removed) {
          list?.splice(index, 0, removed);
          removeModule(projectId, moduleId);
        }
      };
    },
    call: () =>
      api.delete(`${modulePath(slug, projectId, moduleId)}archive/`, { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't restore the module",
  });
  if (ok) delete modules.details[moduleId];
  return Boolean(ok);
}

/** Star or unstar a module for the caller; true when done. */
export async function setModuleFavorite(
  slug: string,
  projectId: string,
  moduleId: string,
  favorite: boolean,
): Promise<boolean> {
  const setFlag = (value: boolean) => {
    const item = modules.byProject[projectId]?.list.find((m) => m.id === moduleId);
    if (item) item.is_favorite = value;
    const detail = modules.details[moduleId]?.detail;
    if (detail) detail.is_favorite = value;
  };
  const found = modules.byProject[projectId]?.list.find((m) => m.id === moduleId) ?? modules.details[moduleId]?.detail;
  const ok = await optimistic({
    apply: () => {
      setFlag(favorite);
      // The sidebar's Favorites shows it at once too (the server's favorite.created replaces it).
      const undoSidebar = markEntityFavorite(
        slug,
        {
          entity_type: "module",
          id: moduleId,
          project_id: projectId,
          name: found?.name ?? "",
          logo_props: found?.logo_props as LogoProps,
        },
        favorite,
      );
      return () => {
        setFlag(!favorite);
        undoSidebar();
      };
    },
    call: () =>
      (favorite
        ? api.post(`${projectBase(slug, projectId)}/user-favorite-modules/`, { json: { module: moduleId } })
        : api.delete(`${projectBase(slug, projectId)}/user-favorite-modules/${moduleId}/`)
      ).then(() => true),
    error: favorite ? "Couldn't add the module to favorites" : "Couldn't remove the module from favorites",
  });
  if (ok) settleFavorites(slug);
  return Boolean(ok);
}

const detailInflight = new Map<string, Promise<void>>();

/**
 * Changes to a module's links made here or heard live, per module. A detail read that began
 * before one of them answers links as they were then: the links held now are newer and are
 * kept (a link added while the panel re-read the module would otherwise vanish).
 */
const linkChanges = new Map<string, number>();
function noteLinkChange(moduleId: string): void {
  linkChanges.set(moduleId, (linkChanges.get(moduleId) ?? 0) + 1);
}

/** Load a module's detail (links, breakdowns); a 404 marks it missing. */
export function loadModuleDetail(slug: string, projectId: string, moduleId: string): Promise<void> {
  const running = detailInflight.get(moduleId);
  if (running) return running;
  if (!modules.details[moduleId]) modules.details[moduleId] = { status: "loading", detail: null };
  const changesBefore = linkChanges.get(moduleId) ?? 0;
  const promise = api
    .get(modulePath(slug, projectId, moduleId))
    .json<ModuleDetail>()
    .then((detail) => {
      const current = modules.details[moduleId]?.detail;
      const linksMovedOn = current && (linkChanges.get(moduleId) ?? 0) !== changesBefore;
      modules.details[moduleId] = {
        status: "ready",
        detail: {
          ...detail,
          is_favorite: detail.is_favorite ?? current?.is_favorite,
          link_module: linksMovedOn ? current.link_module : detail.link_module,
        },
      };
      putModule(detail);
    })
    .catch((error: unknown) => {
      const missing = error instanceof HTTPError && error.response.status === 404;
      const entry = modules.details[moduleId];
      if (missing) modules.details[moduleId] = { status: "missing", detail: null };
      else if (entry && entry.status !== "ready") entry.status = "error";
    })
    .finally(() => detailInflight.delete(moduleId));
  detailInflight.set(moduleId, promise);
  return promise;
}

/** The project's archived modules. */
export function loadArchivedModules(slug: string, projectId: string, force = false): Promise<void> {
  const current = modules.archived[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) modules.archived[projectId] = { status: "loading", list: [] };
  return api
    .get(`${projectBase(slug, projectId)}/archived-modules/`)
    .json<Module[]>()
    .then((list) => {
      modules.archived[projectId] = { status: "ready", list };
    })
    .catch((error: unknown) => {
      const entry = modules.archived[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    });
}

// ───────────── links ─────────────

/** Only absolute http(s) URLs (the server's rule); a bare host gets https://. Null when not a URL. */
export function normalizeLinkUrl(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.hostname || !/[.]|^localhost$/.test(url.hostname)) return null;
    return url.toString();
  } catch {
    return null;
  }
}

const linksPath = (slug: string, projectId: string, moduleId: string) =>
  `${modulePath(slug, projectId, moduleId)}module-links/`;

function detailLinks(moduleId: string): ModuleLink[] | undefined {
  return modules.details[moduleId]?.detail?.link_module;
}

/**
 * Send a link (new or edited) and place the server's copy in the module's detail; resolves to
 * the field errors to show (empty when saved). The URL rule is checked here first, as the server
 * checks it.
 */
async function sendLink(
  input: { url: string; title: string },
  send: (json: { url: string; title: string | null }) => Promise<ModuleLink>,
  place: (links: ModuleLink[], link: ModuleLink) => void,
  moduleId: string,
): Promise<Record<string, string>> {
  const url = normalizeLinkUrl(input.url);
  if (!url) return { url: "Enter a valid http:// or https:// URL" };
  try {
    const link = await send({ url, title: input.title.trim() || null });
    noteLinkChange(moduleId);
    const links = detailLinks(moduleId);
    if (links) place(links, link);
    return {};
  } catch (error) {
    const fields = await fieldErrors(error);
    if (!Object.keys(fields).length) fields.url = await errorMessage(error);
    return fields;
  }
}

/** Add a link; resolves to the field errors to show (empty when it was added). */
export function createModuleLink(
  slug: string,
  projectId: string,
  moduleId: string,
  input: { url: string; title: string },
): Promise<Record<string, string>> {
  return sendLink(
    input,
    (json) => api.post(linksPath(slug, projectId, moduleId), { json, headers: mutationHeaders() }).json<ModuleLink>(),
    (links, link) => {
      // The live echo may have put it there first.
      if (!links.some((l) => l.id === link.id)) links.unshift(link);
    },
    moduleId,
  );
}

/** Edit a link's title or URL; resolves to the field errors to show (empty when saved). */
export function updateModuleLink(
  slug: string,
  projectId: string,
  moduleId: string,
  linkId: string,
  input: { url: string; title: string },
): Promise<Record<string, string>> {
  return sendLink(
    input,
    (json) =>
      api
        .patch(`${linksPath(slug, projectId, moduleId)}${linkId}/`, { json, headers: mutationHeaders() })
        .json<ModuleLink>(),
    (links, link) => {
      const index = links.findIndex((l) => l.id === linkId);
      if (index >= 0) links[index] = link;
    },
    moduleId,
  );
}

/** Remove a link at once (back if refused). */
export async function deleteModuleLink(
  slug: string,
  projectId: string,
  moduleId: string,
  linkId: string,
): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      noteLinkChange(moduleId);
      const links = detailLinks(moduleId);
      const index = links?.findIndex((l) => l.id === linkId) ?? -1;
      const removed = index >= 0 ? links?.splice(index, 1)[0] : undefined;
      return () => {
        if (removed) detailLinks(moduleId)?.splice(index, 0, removed);
      };
    },
    call: () =>
      api.delete(`${linksPath(slug, projectId, moduleId)}${linkId}/`, { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't remove the link",
  });
  return Boolean(ok);
}

// ───────────── membership ─────────────

/** Put items into the module at once (boards move them), undone if refused. */
export async function addIssuesToModule(
  slug: string,
  projectId: string,
  moduleId: string,
  issueIds: readonly string[],
): Promise<boolean> {
  const ids = [...new Set(issueIds)];
  if (!ids.length) return true;
  const ok = await optimistic({
    apply: () => {
      const before: WorkItem[] = [];
      const after: WorkItem[] = [];
      for (const id of ids) {
        const item = getWorkItem(id);
        if (!item || item.module_ids.includes(moduleId)) continue;
        before.push(item);
        after.push({ ...item, module_ids: [...item.module_ids, moduleId] });
      }
      upsertWorkItems(projectId, after);
      return () => upsertWorkItems(projectId, before);
    },
    call: () =>
      api
        .post(`${modulePath(slug, projectId, moduleId)}issues/`, { json: { issues: ids }, headers: mutationHeaders() })
        .then(() => true),
    error: "Couldn't add the work items to the module",
  });
  if (ok) {
    toast.success(ids.length === 1 ? "Work item added to the module" : `${ids.length} work items added to the module`);
    void loadModuleDetail(slug, projectId, moduleId);
  }
  return Boolean(ok);
}

/** Take one item out of the module at once, undone if refused. */
export async function removeIssueFromModule(
  slug: string,
  projectId: string,
  moduleId: string,
  issueId: string,
): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const item = getWorkItem(issueId);
      if (!item) return () => undefined;
      upsertWorkItems(projectId, [{ ...item, module_ids: item.module_ids.filter((id) => id !== moduleId) }]);
      return () => upsertWorkItems(projectId, [item]);
    },
    call: () =>
      api
        .delete(`${modulePath(slug, projectId, moduleId)}issues/${issueId}/`, { headers: mutationHeaders() })
        .then(() => true),
    error: "Couldn't remove the work item from the module",
  });
  if (ok) void loadModuleDetail(slug, projectId, moduleId);
  return Boolean(ok);
}
