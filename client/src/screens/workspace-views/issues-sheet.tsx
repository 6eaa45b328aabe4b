/**
 * The workspace list as a spreadsheet: one row per work item across projects, virtualised
 * (@tanstack/react-virtual), with the next page fetched as the end comes into view. Cells are
 * read-only here — the board's cell editors need one project's board context — and a row
 * opens the item's peek (Enter or click). Arrow keys move between rows, Home/End jump.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import clsx from "clsx";
import { type KeyboardEvent, memo, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Avatar } from "../../components/ui";
import { useIsNarrow } from "../../lib/use-media";
import { memberName, members } from "../../stores/members";
import { type ProjectLabel, type ProjectState, projectMeta } from "../../stores/project-meta";
import type { Project } from "../../stores/projects";
import type { WorkItem } from "../../stores/work-items";
import { formatDate, formatDateTime, LabelDot, PriorityIcon, StateIcon } from "../work-items/properties";
import { ProjectLogo } from "../workspace/components/logos";
import { Skeleton } from "../workspace/components/skeleton";
import "../work-items/work-items.css";

const ROW = 36;

type Column = { key: string; width: number; titleKey: string };
const COLUMNS: Column[] = [
  { key: "name", width: 360, titleKey: "workspaceViews.columns.name" },
  { key: "project", width: 180, titleKey: "workspaceViews.columns.project" },
  { key: "state", width: 160, titleKey: "workspaceViews.columns.state" },
  { key: "priority", width: 120, titleKey: "workspaceViews.columns.priority" },
  { key: "assignees", width: 170, titleKey: "workspaceViews.columns.assignees" },
  { key: "labels", width: 190, titleKey: "workspaceViews.columns.labels" },
  { key: "start", width: 120, titleKey: "workspaceViews.columns.startDate" },
  { key: "due", width: 120, titleKey: "workspaceViews.columns.dueDate" },
  { key: "created", width: 130, titleKey: "workspaceViews.columns.createdOn" },
  { key: "updated", width: 130, titleKey: "workspaceViews.columns.updatedOn" },
];
/** On a phone the sticky name column leaves room to scroll the others. */
const NARROW_NAME = 220;

type Person = { name: string; avatar: string | null };
type Lookups = {
  projectById: ReadonlyMap<string, Project>;
  stateById: ReadonlyMap<string, ProjectState>;
  labelById: ReadonlyMap<string, ProjectLabel>;
  personById: ReadonlyMap<string, Person>;
};

type Props = {
  slug: string;
  rows: readonly WorkItem[];
  projects: readonly Project[];
  /** More rows exist after the last one. */
  hasMore: boolean;
  onLoadMore: () => void;
  onOpen: (item: WorkItem) => void;
  /** The row whose peek is open (highlighted). */
  openId: string | null;
};

export function IssuesSheet({ slug, rows, projects, hasMore, onLoadMore, onOpen, openId }: Props) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const narrow = useIsNarrow();
  const columns = useMemo(
    () => (narrow ? COLUMNS.map((c, i) => (i === 0 ? { ...c, width: NARROW_NAME } : c)) : COLUMNS),
    [narrow],
  );
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  const metaSnap = useSnapshot(projectMeta);
  const people = useSnapshot(members).bySlug[slug];

  const lookups = useMemo<Lookups>(() => {
    const stateById = new Map<string, ProjectState>();
    const labelById = new Map<string, ProjectLabel>();
    for (const meta of Object.values(metaSnap.byProject)) {
      for (const s of meta.states) stateById.set(s.id, s as ProjectState);
      for (const l of meta.labels) labelById.set(l.id, l as ProjectLabel);
    }
    const personById = new Map<string, Person>();
    for (const m of people ?? [])
      personById.set(m.member.id, { name: memberName(m.member), avatar: m.member.avatar_url });
    return { projectById: new Map(projects.map((p) => [p.id, p])), stateById, labelById, personById };
  }, [metaSnap.byProject, people, projects]);

  // One placeholder row at the end while more can be loaded: scrolling to it asks for the next page.
  const count = rows.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    getItemKey: (index) => rows[index]?.id ?? `more-${index}`,
    overscan: 12,
    scrollPaddingStart: ROW,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && lastIndex >= rows.length - 10) onLoadMore();
  }, [hasMore, lastIndex, rows.length, onLoadMore]);

  useEffect(() => {
    setActive((a) => Math.max(0, Math.min(a, rows.length - 1)));
  }, [rows.length]);

  const focusRow = (index: number) => {
    const row = Math.max(0, Math.min(rows.length - 1, index));
    setActive(row);
    virtualizer.scrollToIndex(row, { align: "auto" });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-row="${row}"]`)?.focus());
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: rows.length - 1,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      focusRow(next);
    }
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualised grid positions its rows absolutely; table layout can't
    <div
      ref={scrollRef}
      className="wi-sheet wsv-sheet"
      role="grid"
      aria-label={t("workspaceViews.sheetLabel")}
      aria-rowcount={count + 1}
      onKeyDown={onKeyDown}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above) */}
      <div className="wi-sheet-head" role="row" aria-rowindex={1} tabIndex={-1} style={{ width }}>
        {columns.map((c, i) => (
          // biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above)
          <div
            key={c.key}
            role="columnheader"
            tabIndex={-1}
            className={clsx("wi-sheet-th", i === 0 && "wi-sheet-sticky wsv-sticky")}
            style={{ width: c.width }}
          >
            {t(c.titleKey)}
          </div>
        ))}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative", width }}>
        {virtualRows.map((v) => {
          const item = rows[v.index];
          return (
            // biome-ignore lint/a11y/useSemanticElements: virtualised grid rows are absolutely positioned
            <div
              key={v.key}
              role="row"
              tabIndex={-1}
              aria-rowindex={v.index + 2}
              className={clsx("wi-sheet-row", item && item.id === openId && "is-selected")}
              style={{ transform: `translateY(${v.start}px)`, width }}
            >
              {item ? (
                <SheetRow
                  columns={columns}
                  item={item}
                  index={v.index}
                  lookups={lookups}
                  tabbable={v.index === active}
                  onOpen={onOpen}
                  onFocusRow={setActive}
                />
              ) : (
                <LoadingRow columns={columns} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function LoadingRow({ columns }: { columns: readonly Column[] }) {
  return (
    <>
      {columns.map((c, i) => (
        <Td key={c.key} className={clsx("wi-sheet-td wsv-td", i === 0 && "wi-sheet-sticky wsv-sticky")} width={c.width}>
          <Skeleton width={i === 0 ? 200 : 70} />
        </Td>
      ))}
    </>
  );
}

function Td({ className, width, children }: { className: string; width?: number; children?: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: virtualised grid cells are flex items of positioned rows
    <div role="gridcell" tabIndex={-1} className={className} style={{ width }}>
      {children}
    </div>
  );
}

const SheetRow = memo(function SheetRow({
  columns,
  item,
  index,
  lookups,
  tabbable,
  onOpen,
  onFocusRow,
}: {
  columns: readonly Column[];
  item: WorkItem;
  index: number;
  lookups: Lookups;
  tabbable: boolean;
  onOpen: (item: WorkItem) => void;
  onFocusRow: (index: number) => void;
}) {
  const { t } = useTranslation();
  const project = lookups.projectById.get(item.project_id);
  const state = item.state_id ? lookups.stateById.get(item.state_id) : undefined;
  const key = project ? `${project.identifier}-${item.sequence_id}` : `#${item.sequence_id}`;
  const labels = item.label_ids.map((id) => lookups.labelById.get(id)).filter((l): l is ProjectLabel => Boolean(l));
  const people = item.assignee_ids.map((id) => lookups.personById.get(id)).filter((p): p is Person => Boolean(p));
  return (
    <>
      <Td className="wi-sheet-td wi-sheet-sticky wsv-sticky wsv-name-cell" width={columns[0]?.width}>
        <button
          type="button"
          className="wsv-open"
          data-row={index}
          tabIndex={tabbable ? 0 : -1}
          onFocus={() => onFocusRow(index)}
          onClick={() => onOpen(item)}
          aria-label={t("workspaceViews.openItem", { key, name: item.name })}
        >
          <span className="wsv-key">{key}</span>
          <span className="wsv-name">{item.name}</span>
        </button>
      </Td>
      <Td className="wi-sheet-td wsv-td" width={columns[1]?.width}>
        {project ? (
          <>
            <ProjectLogo name={project.name} logo={project.logo_props} size={16} />
            <span className="wsv-ellipsis">{project.name}</span>
          </>
        ) : null}
      </Td>
      <Td className="wi-sheet-td wsv-td" width={columns[2]?.width}>
        <StateIcon group={state?.group ?? item.state__group} color={state?.color} />
        {state ? (
          <span className="wsv-ellipsis">{state.name}</span>
        ) : (
          <span className="wsv-ellipsis wsv-muted">
            {item.state__group ? t(`workItems.stateGroup.${item.state__group}`) : ""}
          </span>
        )}
      </Td>
      <Td className="wi-sheet-td wsv-td" width={columns[3]?.width}>
        <PriorityIcon priority={item.priority} />
        <span className="wsv-ellipsis">{t(`workItems.priority.${item.priority}`)}</span>
      </Td>
      <Td className="wi-sheet-td wsv-td" width={columns[4]?.width}>
        {people.length ? (
          <>
            <span className="wsv-avatars">
              {people.slice(0, 3).map((p) => (
                <Avatar key={p.name} name={p.name} src={p.avatar} size={18} />
              ))}
            </span>
            <span className="wsv-ellipsis">
              {people.length === 1 ? people[0]?.name : t("workspaceViews.people", { count: people.length })}
            </span>
          </>
        ) : (
          <span className="wsv-muted">{t("workspaceViews.none")}</span>
        )}
      </Td>
      <Td className="wi-sheet-td wsv-td" width={columns[5]?.width}>
        {labels.length ? (
          labels.length === 1 ? (
            <span className="wsv-label">
              <LabelDot color={labels[0]?.color ?? ""} />
              <span className="wsv-ellipsis">{labels[0]?.name}</span>
            </span>
          ) : (
            <span className="wsv-label">
              <span className="wsv-dots">
                {labels.slice(0, 3).map((l) => (
                  <LabelDot key={l.id} color={l.color} />
                ))}
              </span>
              {t("workspaceViews.labels", { count: labels.length })}
            </span>
          )
        ) : (
          <span className="wsv-muted">{t("workspaceViews.none")}</span>
        )}
      </Td>
      <Td className="wi-sheet-td wsv-td wsv-num" width={columns[6]?.width}>
        {item.start_date ? formatDate(item.start_date) : <span className="wsv-muted">—</span>}
      </Td>
      <Td className="wi-sheet-td wsv-td wsv-num" width={columns[7]?.width}>
        {item.target_date ? formatDate(item.target_date) : <span className="wsv-muted">—</span>}
      </Td>
      <Td className="wi-sheet-td wsv-td wsv-num" width={columns[8]?.width}>
        {formatDateTime(item.created_at)}
      </Td>
      <Td className="wi-sheet-td wsv-td wsv-num" width={columns[9]?.width}>
        {formatDateTime(item.updated_at)}
      </Td>
    </>
  );
});
