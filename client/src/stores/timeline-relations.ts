/**
 * Blocking relations for the work-items timeline's arrows. The project's work-item list (the
 * v2 sync) carries no relations, and no list call gives them yet, so they come from each item's
 * own GET {type}/{id}/issue-relation/ — asked only for the rows on screen (the timeline draws
 * arrows for those alone), a few at a time, each item once per opening of the timeline.
 * When a list variant with relations exists ({type}-detail/?expand=issue_relation), one call per
 * page of items can replace this.
 */
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

/** An item's blocking relations: the ids it blocks and the ids blocking it. */
export type BlockingRelations = { blocking: string[]; blockedBy: string[] };

type RelatedLite = { id: string };

export const timelineRelations = defineStore(() => ({
  /** Bumped whenever a project's relations arrive; components subscribe to re-read the Map. */
  version: {} as Record<string, number>,
}));

const byProject = new Map<string, Map<string, BlockingRelations>>();
const asked = new Map<string, Set<string>>();
const CONCURRENCY = 4;

function projectMap<T>(maps: Map<string, T>, projectId: string, make: () => T): T {
  let map = maps.get(projectId);
  if (!map) {
    map = make();
    maps.set(projectId, map);
  }
  return map;
}

/** The relations known for a project's items (read after subscribing to the version). */
export function getTimelineRelations(projectId: string): ReadonlyMap<string, BlockingRelations> {
  return byProject.get(projectId) ?? new Map();
}

/** Forget what was loaded (the timeline asks again when it next opens: relations may have changed). */
export function resetTimelineRelations(projectId: string): void {
  byProject.delete(projectId);
  asked.delete(projectId);
  timelineRelations.version[projectId] = (timelineRelations.version[projectId] ?? 0) + 1;
}

/** Load the relations of the given items not asked for yet; failures leave them without arrows. */
export async function loadTimelineRelations(slug: string, projectId: string, ids: readonly string[]): Promise<void> {
  const seen = projectMap(asked, projectId, () => new Set<string>());
  const wanted = ids.filter((id) => !seen.has(id) && !id.startsWith("temp-"));
  if (!wanted.length) return;
  for (const id of wanted) seen.add(id);
  const queue = [...wanted];
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        const groups = await api
          .get(`/api/workspaces/${slug}/projects/${projectId}/issues/${id}/issue-relation/`)
          .json<Record<string, RelatedLite[] | undefined>>();
        // A reset while this was in flight: drop the answer (the next opening asks again).
        if (asked.get(projectId) !== seen) return;
        projectMap(byProject, projectId, () => new Map()).set(id, {
          blocking: (groups.blocking ?? []).map((r) => r.id),
          blockedBy: (groups.blocked_by ?? []).map((r) => r.id),
        });
        timelineRelations.version[projectId] = (timelineRelations.version[projectId] ?? 0) + 1;
      } catch {
        // Not fatal: the row shows without its arrows; asked again on the next opening.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
}
