/**
 * The reference's search shapes: GlobalSearchEndpoint's `values(...)` per group (search/) and
 * SearchEndpoint's per query_type (entity-search/; packages/types search.ts TSearchResponse).
 */
import { calendarDate, cycleStatus } from "@tideline/shared";
import type { PageHit, ProjectHit, ProjectObjectHit, WorkspaceHit } from "./service.ts";
import type { WorkItemHit } from "./work-items.ts";

/** search/ workspace: IWorkspaceSearchResult. */
export const presentWorkspaceResult = (w: WorkspaceHit) => ({ name: w.name, id: w.id, slug: w.slug });

/** search/ project: IWorkspaceProjectSearchResult. */
export const presentProjectResult = (p: ProjectHit) => ({
  name: p.name,
  id: p.id,
  identifier: p.identifier,
  workspace__slug: p.workspace__slug,
});

/** entity-search/ project: TProjectSearchResponse. */
export const presentProjectEntity = (p: ProjectHit) => ({
  name: p.name,
  id: p.id,
  identifier: p.identifier,
  logo_props: p.logo_props,
  workspace__slug: p.workspace__slug,
});

/** search/ issue: IWorkspaceIssueSearchResult as the server fills it. */
export const presentIssueResult = (i: WorkItemHit, slug: string) => ({
  name: i.name,
  id: i.id,
  sequence_id: i.sequence_id,
  project__identifier: i.project__identifier,
  project_id: i.project_id,
  workspace__slug: slug,
});

/** search/ cycle, module, issue_view: IWorkspaceDefaultSearchResult. */
export const presentProjectObjectResult = (x: ProjectObjectHit) => ({
  name: x.name,
  id: x.id,
  project_id: x.project_id,
  project__identifier: x.project__identifier,
  workspace__slug: x.workspace__slug,
});

/**
 * search/ page: the server answers `project_identifiers`, the reference's palette reads
 * `project__identifiers` (IWorkspacePageSearchResult) for the badge: both are given.
 */
export const presentPageResult = (p: PageHit) => ({
  name: p.name,
  id: p.id,
  project_ids: p.project_ids,
  project_identifiers: p.project_identifiers,
  project__identifiers: p.project_identifiers,
  workspace__slug: p.workspace__slug,
});

/** entity-search/ issue: TIssueSearchResponse (work-item types do not exist here: type_id null). */
export const presentIssueEntity = (i: WorkItemHit) => ({
  name: i.name,
  id: i.id,
  sequence_id: i.sequence_id,
  project__identifier: i.project__identifier,
  project_id: i.project_id,
  priority: i.priority,
  state_id: i.state_id,
  type_id: null,
});

/** entity-search/ cycle: TCycleSearchResponse, the status in capitals as that endpoint spells it. */
export const presentCycleEntity = (c: ProjectObjectHit) => ({
  name: c.name,
  id: c.id,
  project_id: c.project_id,
  project__identifier: c.project__identifier,
  status: cycleStatus(
    { start_date: c.start_date, end_date: c.end_date },
    calendarDate(new Date(), c.timezone),
  ).toUpperCase(),
  workspace__slug: c.workspace__slug,
});

/** entity-search/ module: TModuleSearchResponse. */
export const presentModuleEntity = (m: ProjectObjectHit) => ({
  name: m.name,
  id: m.id,
  project_id: m.project_id,
  project__identifier: m.project__identifier,
  status: m.status,
  workspace__slug: m.workspace__slug,
});

/**
 * entity-search/ page: TPageSearchResponse. One project per row, as the reference's
 * `.values("projects__id")` gives it: the asked project, else the first of the page's projects
 * the caller is in.
 */
export const presentPageEntity = (p: PageHit, projectId: string | null) => ({
  name: p.name,
  id: p.id,
  logo_props: p.logo_props,
  projects__id: projectId ?? p.project_ids[0] ?? null,
  workspace__slug: p.workspace__slug,
});
