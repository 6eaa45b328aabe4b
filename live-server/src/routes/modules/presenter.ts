/**
 * How a module appears in API responses and module.* events (snake_case; the reference's
 * IModule). Counters come from progress.ts; `is_favorite` is the caller's own and is left out
 * of events (they go to every member).
 */
import type { moduleLinks, modules } from "../../db/schema.ts";
import type { ActorDetail } from "../issue-details/common.ts";
import { type ModuleCounters, ZERO_COUNTERS } from "./progress.ts";

export type ModuleRow = typeof modules.$inferSelect;
export type ModuleLinkRow = typeof moduleLinks.$inferSelect;

export function presentModule(
  m: ModuleRow,
  extra: { memberIds: string[]; counters?: ModuleCounters; isFavorite?: boolean },
) {
  return {
    id: m.id,
    workspace_id: m.workspaceId,
    project_id: m.projectId,
    name: m.name,
    description: m.description,
    description_text: m.description,
    description_html: m.descriptionHtml,
    start_date: m.startDate,
    target_date: m.targetDate,
    status: m.status,
    lead_id: m.leadId,
    member_ids: extra.memberIds,
    view_props: m.viewProps,
    sort_order: m.sortOrder,
    external_source: m.externalSource,
    external_id: m.externalId,
    logo_props: m.logoProps,
    is_favorite: extra.isFavorite ?? false,
    ...(extra.counters ?? ZERO_COUNTERS),
    archived_at: m.archivedAt ? m.archivedAt.toISOString() : null,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    created_by: m.createdById,
    updated_by: m.updatedById,
  };
}

export type PresentedModule = ReturnType<typeof presentModule>;

/** The module as events carry it: without the per-user favorite flag. */
export function eventData(presented: PresentedModule): Record<string, unknown> {
  const { is_favorite: _favorite, ...rest } = presented;
  return rest;
}

export function presentModuleLink(link: ModuleLinkRow, createdBy: ActorDetail | null) {
  return {
    id: link.id,
    url: link.url,
    title: link.title,
    metadata: link.metadata,
    module: link.moduleId,
    module_id: link.moduleId,
    project: link.projectId,
    project_id: link.projectId,
    workspace: link.workspaceId,
    workspace_id: link.workspaceId,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    created_by: link.createdById,
    updated_by: link.updatedById,
    created_by_detail: createdBy,
  };
}
