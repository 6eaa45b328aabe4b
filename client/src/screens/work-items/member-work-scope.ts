/**
 * The scope of a workspace-level board of one member's work: everything, what they are assigned,
 * what they created, what they are subscribed to. Assigned and created are read off the cached
 * items; subscriptions only the server knows, so their ids are fetched (and fetched again,
 * debounced, when the cache changes — a new assignment or comment subscribes — and on focus).
 */
import { useEffect, useMemo, useState } from "react";
import { useSnapshot } from "valtio";
import { type WorkItem, workItems } from "../../stores/work-items";
import { fetchSubscribedIds } from "../../stores/workspace-views";
import type { MultiProjectScope } from "./multi-project-board";

export type MemberWorkKind = "all" | "assigned" | "created" | "subscribed";

const REFETCH_DELAY = 2_000;

/** The scope as a pure value (assigned and created; the subscribed one needs its ids). */
export function memberWorkScope(
  kind: MemberWorkKind,
  userId: string,
  subscribed?: { ids: ReadonlySet<string>; generation: number } | null,
): MultiProjectScope {
  switch (kind) {
    case "assigned":
      return {
        key: `assigned:${userId}`,
        includes: (item: WorkItem) => item.assignee_ids.includes(userId),
        query: { assignees: userId },
        ready: true,
      };
    case "created":
      return {
        key: `created:${userId}`,
        includes: (item: WorkItem) => item.created_by === userId,
        query: { created_by: userId },
        ready: true,
      };
    case "subscribed":
      return {
        // Each answer is a new set: its generation tells the board to filter again.
        key: `subscribed:${userId}:${subscribed?.generation ?? "loading"}`,
        includes: (item: WorkItem) => Boolean(subscribed?.ids.has(item.id)),
        query: { subscriber: userId },
        ready: Boolean(subscribed),
      };
    default:
      return { key: "all", query: {}, ready: true };
  }
}

/** The scope for a board; for "subscribed", kept current with the server. */
export function useMemberWorkScope(slug: string, kind: MemberWorkKind, userId: string | null): MultiProjectScope {
  const [subscribed, setSubscribed] = useState<{ key: string; ids: Set<string>; generation: number } | null>(null);
  const globalVersion = useSnapshot(workItems).globalVersion;
  const wanted = kind === "subscribed" && userId ? `${slug}/${userId}` : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: globalVersion re-runs it (debounced) when the cache changes
  useEffect(() => {
    if (!wanted || !userId) return;
    let alive = true;
    const load = () =>
      fetchSubscribedIds(slug, userId)
        .then((ids) => {
          if (alive) setSubscribed((old) => ({ key: wanted, ids, generation: (old?.generation ?? 0) + 1 }));
        })
        .catch(() => undefined);
    // The first load at once; later ones after the cache has been quiet for a moment.
    const first = subscribed?.key !== wanted;
    const timer = setTimeout(load, first ? 0 : REFETCH_DELAY);
    const onFocus = () => document.visibilityState === "visible" && void load();
    window.addEventListener("focus", onFocus);
    return () => {
      alive = false;
      clearTimeout(timer);
      window.removeEventListener("focus", onFocus);
    };
  }, [slug, userId, wanted, globalVersion]);

  const current = subscribed && subscribed.key === wanted ? subscribed : null;
  return useMemo(() => memberWorkScope(kind, userId ?? "", current), [kind, userId, current]);
}
