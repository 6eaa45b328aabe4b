/**
 * An epic's progress on the epics board (list rows, kanban cards): a ring and "done/total" of its
 * child work items, the counts by state group in its tooltip. Counted from the local cache rather
 * than the server's distribution, so a child completed anywhere (here, in another tab, by another
 * person through the live layer) moves it at once. Done and total follow the epic's page
 * (epicCompletion: cancelled children are out of the total).
 */
import type { ProgressCounters } from "@tideline/shared";
import { useTranslation } from "react-i18next";
import { useProjectWorkItems, type WorkItem } from "../../stores/work-items";
import { childCountersByParent, epicCompletion } from "./epic-logic";
import "./epics.css";

/** The tooltip's order: what is finished first, as the progress bar reads. */
const GROUPS = ["completed", "started", "unstarted", "backlog", "cancelled"] as const;

/** The last count per project, keyed by the cache's item list (a new array on every change). */
const countsByProject = new Map<string, { items: readonly WorkItem[]; counts: Map<string, ProgressCounters> }>();

/**
 * The children's counters of `epicId`, undefined when it has none. Every chip of a board reads
 * the same count: one pass over the project's items per cache version, however many rows ask.
 */
export function useEpicChildCounters(projectId: string, epicId: string): ProgressCounters | undefined {
  const { items } = useProjectWorkItems(projectId);
  let memo = countsByProject.get(projectId);
  if (!memo || memo.items !== items) {
    memo = { items, counts: childCountersByParent(items) };
    countsByProject.set(projectId, memo);
  }
  return memo.counts.get(epicId);
}

const RADIUS = 5;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export function EpicProgressChip({ item }: { item: WorkItem }) {
  const { t } = useTranslation();
  const counters = useEpicChildCounters(item.project_id, item.id);
  if (!counters) return null;
  const { done, total, percent } = epicCompletion(counters);
  const summary = t("epics.chip.summary", { done, count: total });
  const groups = GROUPS.filter((g) => counters[`${g}_issues`] > 0).map((g) =>
    t("epics.chip.group", { group: t(`charts.groups.${g}`), count: counters[`${g}_issues`] }),
  );
  const tooltip = [summary, ...groups].join("\n");
  return (
    <span
      className="ep-chip"
      role="img"
      aria-label={[summary, ...groups].join(", ")}
      title={tooltip}
      data-testid="epic-progress-chip"
      data-complete={total > 0 && done === total ? "" : undefined}
    >
      <svg className="ep-chip-ring" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
        <circle className="ep-chip-track" cx="7" cy="7" r={RADIUS} />
        {percent > 0 ? (
          <circle
            className="ep-chip-arc"
            cx="7"
            cy="7"
            r={RADIUS}
            strokeDasharray={`${(CIRCUMFERENCE * percent) / 100} ${CIRCUMFERENCE}`}
            transform="rotate(-90 7 7)"
          />
        ) : null}
      </svg>
      <span className="ep-chip-count">
        {done}/{total}
      </span>
    </span>
  );
}
