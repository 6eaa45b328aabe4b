/**
 * /:ws/projects/:projectId/modules/ — a project's modules in three layouts (list, board by
 * status, timeline), searched by name, ordered by a §9 order, filtered by status, lead, members
 * or favorites. Layout, order and filters are remembered per project in this browser, with the §9
 * defaults (list, by name, favorites off). The list comes from the modules store, kept live by the
 * project's channel.
 */
import {
  MODULE_ORDER_BY,
  MODULE_STATUSES,
  type ModuleLayout,
  type ModuleOrderBy,
  type ModuleStatus,
  personName,
} from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  ArrowDownUp,
  Boxes,
  Check,
  Columns3,
  GanttChart,
  LayoutList,
  ListFilter,
  Plus,
  SearchX,
  X,
} from "lucide-react";
import { Popover } from "radix-ui";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Timeline, type TimelineRow } from "../../components/timeline/timeline";
import { Avatar, Button, EmptyState } from "../../components/ui";
import { useCreateIntent } from "../../lib/create-intent";
import { readLocal, writeLocal } from "../../lib/local-storage";
import { watchProjectLive } from "../../stores/live-board";
import { loadModules, type Module, modules, updateModule } from "../../stores/modules";
import { useCreateShortcut } from "../workspace/components/create-shortcut";
import { ListSearch } from "../workspace/components/list-parts";
import { Menu, MenuItem, MenuLabel } from "../workspace/components/menu";
import { PageHeader } from "../workspace/components/page-header";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";
import { SkeletonRows } from "../workspace/components/skeleton";
import { type ModuleProjectContext, moduleUrl, ProjectCrumbs, StatusIcon, useModuleProject } from "./module-bits";
import { ModuleBoard, ModuleListRows } from "./module-list";
import {
  activeFilterCount,
  EMPTY_MODULE_FILTERS,
  filterModules,
  type ModuleFilters,
  type ModulePagePrefs,
  moduleProgress,
  normalizePrefs,
  prefsKey,
  sortModules,
} from "./module-logic";
import { ModuleModal } from "./module-modal";
import "../../components/ui/controls.css";
import "./modules.css";

const LAYOUT_ICONS: Record<ModuleLayout, typeof LayoutList> = { list: LayoutList, board: Columns3, gantt: GanttChart };

function usePrefs(projectId: string): [ModulePagePrefs, (patch: Partial<ModulePagePrefs>) => void] {
  const [prefs, setPrefs] = useState(() => normalizePrefs(readLocal(prefsKey(projectId), null)));
  useEffect(() => setPrefs(normalizePrefs(readLocal(prefsKey(projectId), null))), [projectId]);
  const update = useCallback(
    (patch: Partial<ModulePagePrefs>) =>
      setPrefs((current) => {
        const next = { ...current, ...patch };
        writeLocal(prefsKey(projectId), next);
        return next;
      }),
    [projectId],
  );
  return [prefs, update];
}

/** The project can't show modules: unknown, not joined, or modules turned off. Null when it can. */
export function projectBlocked(ctx: ModuleProjectContext, t: (key: string) => string): ReactNode {
  return projectScreenBlocked(
    ctx,
    {
      on: ctx.project?.module_view !== false,
      icon: Boxes,
      title: t("modules.disabled.title"),
      description: t("modules.disabled.description"),
      admin: { description: t("modules.disabled.adminDescription"), settings: t("modules.disabled.settings") },
    },
    t,
  );
}

export function ModulesScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { projectId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, project, isMember } = ctx;
  const [prefs, setPrefs] = usePrefs(projectId);
  const [search, setSearch] = useState("");
  const [modal, setModal] = useState<{ module: Module | null; status?: ModuleStatus } | null>(null);
  const snap = useSnapshot(modules);
  const entry = snap.byProject[projectId];

  useEffect(() => {
    if (!isMember) return;
    void loadModules(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId);
  }, [slug, projectId, isMember]);

  useEffect(() => {
    if (project) document.title = `${t("modules.title")} · ${project.name}`;
  }, [project, t]);

  const all = (entry?.list ?? []) as readonly Module[];
  const shown = useMemo(
    () => sortModules(filterModules(all, prefs.filters, search), prefs.order_by),
    [all, prefs.filters, prefs.order_by, search],
  );
  const canCreate = ctx.canEdit && isMember;

  // "c" opens the new-module form when no field has the focus (as elsewhere in the app).
  useCreateShortcut("c", canCreate, () => setModal({ module: null }));
  useCreateIntent("module", projectId, canCreate, () => setModal({ module: null }));

  const header = (
    <PageHeader
      actions={
        canCreate ? (
          <Button size="sm" onClick={() => setModal({ module: null })} title={t("modules.createShortcut")}>
            <Plus size={14} aria-hidden />
            {t("modules.create")}
          </Button>
        ) : null
      }
    >
      <ProjectCrumbs slug={slug} project={project} />
      <h1 className="mo-h1">{t("modules.title")}</h1>
      {entry?.status === "ready" ? <span className="mo-total">{all.length}</span> : null}
    </PageHeader>
  );

  const blocked = projectBlocked(ctx, t);
  if (blocked) {
    return (
      <div className="mo-screen">
        {header}
        {blocked}
      </div>
    );
  }

  const filtersOn = activeFilterCount(prefs.filters) > 0 || search.trim() !== "";
  let body: ReactNode;
  if (!entry || (entry.status === "loading" && all.length === 0)) {
    body = (
      <div className="mo-skeleton">
        <SkeletonRows count={6} height={52} />
      </div>
    );
  } else if (entry.status === "error" && all.length === 0) {
    body = (
      <EmptyState
        icon={Boxes}
        title={t("modules.loadFailed")}
        action={
          <Button variant="secondary" onClick={() => void loadModules(slug, projectId, true).catch(() => undefined)}>
            {t("modules.retry")}
          </Button>
        }
      />
    );
  } else if (all.length === 0) {
    body = (
      <EmptyState
        icon={Boxes}
        title={t("modules.empty.title")}
        description={canCreate ? t("modules.empty.description") : t("modules.empty.guest")}
        action={
          canCreate ? (
            <Button onClick={() => setModal({ module: null })}>
              <Plus size={14} aria-hidden />
              {t("modules.create")}
            </Button>
          ) : null
        }
      />
    );
  } else if (shown.length === 0 && filtersOn) {
    body = (
      <EmptyState
        icon={SearchX}
        title={t("modules.noResults.title")}
        description={t("modules.noResults.description")}
        action={
          <Button
            variant="secondary"
            onClick={() => {
              setSearch("");
              setPrefs({ filters: EMPTY_MODULE_FILTERS });
            }}
          >
            {t("modules.noResults.clear")}
          </Button>
        }
      />
    );
  } else if (prefs.layout === "board") {
    body = (
      <ModuleBoard
        ctx={ctx}
        modules={shown}
        onEdit={(m) => setModal({ module: m })}
        onCreateIn={(status) => setModal({ module: null, status })}
      />
    );
  } else if (prefs.layout === "gantt") {
    body = <ModulesTimeline ctx={ctx} modules={shown} onOpen={(id) => navigate(moduleUrl(slug, projectId, id))} />;
  } else {
    body = <ModuleListRows ctx={ctx} modules={shown} onEdit={(m) => setModal({ module: m })} />;
  }

  return (
    <div className="mo-screen" data-layout={prefs.layout}>
      {header}
      <div className="mo-toolbar">
        <ListSearch
          className="mo-search"
          placeholder={t("modules.searchPlaceholder")}
          label={t("modules.search")}
          value={search}
          onChange={setSearch}
        />
        <div className="mo-tools">
          <fieldset className="ui-segmented mo-segmented">
            <legend className="visually-hidden">{t("modules.layout.label")}</legend>
            {(["list", "board", "gantt"] as const).map((layout) => {
              const Icon = LAYOUT_ICONS[layout];
              return (
                <button
                  key={layout}
                  type="button"
                  aria-pressed={prefs.layout === layout}
                  className={clsx("ui-segment mo-segment", prefs.layout === layout && "is-on")}
                  title={t(`modules.layout.${layout}`)}
                  aria-label={t(`modules.layout.${layout}`)}
                  onClick={() => setPrefs({ layout })}
                >
                  <Icon size={14} aria-hidden />
                  <span className="mo-segment-text">{t(`modules.layout.${layout}`)}</span>
                </button>
              );
            })}
          </fieldset>
          <FiltersPopover ctx={ctx} filters={prefs.filters} onChange={(filters) => setPrefs({ filters })} />
          <Menu
            width={210}
            trigger={
              <button
                type="button"
                className="ui-tool-btn mo-tool-btn"
                aria-label={`${t("modules.order.label")}: ${t(`modules.order.${prefs.order_by}`)}`}
              >
                <ArrowDownUp size={13} aria-hidden />
                <span className="mo-tool-text">{t(`modules.order.${prefs.order_by}`)}</span>
              </button>
            }
          >
            <MenuLabel>{t("modules.order.label")}</MenuLabel>
            {MODULE_ORDER_BY.map((key) => (
              <MenuItem
                key={key}
                icon={<Check size={14} style={{ visibility: prefs.order_by === key ? "visible" : "hidden" }} />}
                onSelect={() => setPrefs({ order_by: key as ModuleOrderBy })}
              >
                {t(`modules.order.${key}`)}
              </MenuItem>
            ))}
          </Menu>
          <Link
            className="ui-tool-btn mo-tool-btn"
            to={`/${slug}/projects/${projectId}/modules/archived/`}
            title={t("modules.archived.open")}
            aria-label={t("modules.archived.open")}
          >
            <Archive size={13} aria-hidden />
            <span className="mo-tool-text">{t("modules.archived.short")}</span>
          </Link>
        </div>
      </div>
      <ActiveFilters ctx={ctx} filters={prefs.filters} onChange={(filters) => setPrefs({ filters })} />
      <div className="mo-body">{body}</div>
      {isMember ? (
        <ModuleModal
          open={modal !== null}
          onOpenChange={(open) => {
            if (!open) setModal(null);
          }}
          slug={slug}
          projectId={projectId}
          members={ctx.members}
          module={modal?.module ?? null}
          initialStatus={modal?.status}
        />
      ) : null}
    </div>
  );
}

function ModulesTimeline({
  ctx,
  modules: list,
  onOpen,
}: {
  ctx: ModuleProjectContext;
  modules: readonly Module[];
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation();
  const rows = useMemo<TimelineRow[]>(
    () =>
      list.map((m) => ({
        id: m.id,
        name: m.name,
        start: m.start_date,
        end: m.target_date,
        progress: moduleProgress(m),
        icon: <StatusIcon status={m.status} />,
      })),
    [list],
  );
  const onChange = useCallback(
    (id: string, dates: { start: string; end: string }) => {
      const module = list.find((m) => m.id === id);
      if (module)
        void updateModule(ctx.slug, module.project_id, id, { start_date: dates.start, target_date: dates.end });
    },
    [list, ctx.slug],
  );
  return <Timeline rows={rows} onChange={onChange} onOpen={onOpen} editable={ctx.canEdit} title={t("modules.title")} />;
}

function FiltersPopover({
  ctx,
  filters,
  onChange,
}: {
  ctx: ModuleProjectContext;
  filters: ModuleFilters;
  onChange: (filters: ModuleFilters) => void;
}) {
  const { t } = useTranslation();
  const count = activeFilterCount(filters);
  const toggle = (key: "status" | "lead" | "members", value: string) => {
    const list = filters[key] as string[];
    onChange({ ...filters, [key]: list.includes(value) ? list.filter((v) => v !== value) : [...list, value] });
  };
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button type="button" className={clsx("ui-tool-btn mo-tool-btn", count > 0 && "is-on")}>
          <ListFilter size={13} aria-hidden />
          <span className="mo-tool-text">{t("modules.filters.button")}</span>
          {count ? <span className="mo-badge">{count}</span> : null}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="combo-pop mo-filters-pop" align="end" sideOffset={4} collisionPadding={8}>
          <label className="mo-filter-option mo-filter-fav">
            <input
              type="checkbox"
              checked={filters.favorites}
              onChange={() => onChange({ ...filters, favorites: !filters.favorites })}
            />
            {t("modules.filters.favorites")}
          </label>
          <div className="mo-filter-group">{t("modules.filters.status")}</div>
          {MODULE_STATUSES.map((s) => (
            <label key={s} className="mo-filter-option">
              <input type="checkbox" checked={filters.status.includes(s)} onChange={() => toggle("status", s)} />
              <StatusIcon status={s} />
              {t(`modules.status.${s}`)}
            </label>
          ))}
          <div className="mo-filter-group">{t("modules.filters.lead")}</div>
          {ctx.members.map((m) => (
            <label key={`lead-${m.member}`} className="mo-filter-option">
              <input
                type="checkbox"
                checked={filters.lead.includes(m.member)}
                onChange={() => toggle("lead", m.member)}
              />
              <Avatar name={personName(m.member_details)} src={m.member_details.avatar_url} size={18} />
              {personName(m.member_details)}
            </label>
          ))}
          <div className="mo-filter-group">{t("modules.filters.members")}</div>
          {ctx.members.map((m) => (
            <label key={`member-${m.member}`} className="mo-filter-option">
              <input
                type="checkbox"
                checked={filters.members.includes(m.member)}
                onChange={() => toggle("members", m.member)}
              />
              <Avatar name={personName(m.member_details)} src={m.member_details.avatar_url} size={18} />
              {personName(m.member_details)}
            </label>
          ))}
          {count ? (
            <div className="combo-footer">
              <button type="button" className="mo-link-btn" onClick={() => onChange(EMPTY_MODULE_FILTERS)}>
                {t("modules.filters.clear")}
              </button>
            </div>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function ActiveFilters({
  ctx,
  filters,
  onChange,
}: {
  ctx: ModuleProjectContext;
  filters: ModuleFilters;
  onChange: (filters: ModuleFilters) => void;
}) {
  const { t } = useTranslation();
  if (!activeFilterCount(filters)) return null;
  const nameOf = (id: string) => {
    const m = ctx.members.find((x) => x.member === id);
    return m ? personName(m.member_details) : "…";
  };
  const chips: { key: string; label: string; remove: () => void }[] = [
    ...(filters.favorites
      ? [
          {
            key: "fav",
            label: t("modules.filters.favorites"),
            remove: () => onChange({ ...filters, favorites: false }),
          },
        ]
      : []),
    ...filters.status.map((s) => ({
      key: `s-${s}`,
      label: `${t("modules.filters.status")}: ${t(`modules.status.${s}`)}`,
      remove: () => onChange({ ...filters, status: filters.status.filter((x) => x !== s) }),
    })),
    ...filters.lead.map((id) => ({
      key: `l-${id}`,
      label: `${t("modules.filters.lead")}: ${nameOf(id)}`,
      remove: () => onChange({ ...filters, lead: filters.lead.filter((x) => x !== id) }),
    })),
    ...filters.members.map((id) => ({
      key: `m-${id}`,
      label: `${t("modules.filters.members")}: ${nameOf(id)}`,
      remove: () => onChange({ ...filters, members: filters.members.filter((x) => x !== id) }),
    })),
  ];
  return (
    <div className="mo-chips">
      {chips.map((c) => (
        <span key={c.key} className="mo-chip">
          {c.label}
          <button
            type="button"
            className="mo-chip-x"
            aria-label={t("modules.filters.remove", { name: c.label })}
            onClick={c.remove}
          >
            <X size={12} aria-hidden />
          </button>
        </span>
      ))}
      <button type="button" className="mo-link-btn" onClick={() => onChange(EMPTY_MODULE_FILTERS)}>
        {t("modules.filters.clear")}
      </button>
    </div>
  );
}
