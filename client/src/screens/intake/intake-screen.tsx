/**
 * /:ws/projects/:projectId/intake/ — the project's queue of requests (product-domain §2–§4, §9).
 * A list pane (tabs Open / Closed, filters, sort, 10 a page with Load more) beside the open
 * request (?request=<id>, so a reload or a link keeps it). On a phone the two stack: the list,
 * or the request full-screen with a back button. Everyone in the project may submit ("c" or the
 * Create request button); guests see their own requests; members triage. Live through the
 * project's channel (stores/live-board.ts → stores/intake.ts).
 */
import { personName, ROLE } from "@tideline/shared";
import clsx from "clsx";
import { ArrowDownUp, Check, FolderKanban, Inbox, ListFilter, Plus } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { useIsNarrow } from "../../lib/use-media";
import {
  clearIntakeFilters,
  INTAKE_PRIORITIES,
  INTAKE_SORTS,
  INTAKE_TAB_STATUSES,
  type IntakeFilters,
  type IntakeList,
  type IntakeRequest,
  type IntakeTab,
  intake,
  intakeFilterCount,
  loadIntake,
  loadIntakeCount,
  NO_INTAKE_FILTERS,
  selectIntake,
  setIntakeFilters,
  setIntakeSort,
  setIntakeTab,
} from "../../stores/intake";
import { watchProjectLive } from "../../stores/live-board";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { session } from "../../stores/session";
import { PriorityIcon } from "../work-item/state-icon";
import { useCreateShortcut } from "../workspace/components/create-shortcut";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";
import { SkeletonRows } from "../workspace/components/skeleton";
import { useProjectScreen } from "../workspace/use-project-screen";
import { CreateIntakeModal } from "./create-intake-modal";
import { IntakeDetail } from "./intake-detail";
import { ago, requestKey, STATUS_KEY, StatusBadge } from "./intake-parts";
import "../work-item/work-item.css";
import "./intake.css";
import { CheckMenuItem } from "../workspace/components/menu";

const TABS: IntakeTab[] = ["open", "closed"];

/** ↑/↓ move between the rows of the list (Tab still leaves it). */
function moveFocus(event: React.KeyboardEvent<HTMLUListElement>) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const rows = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>(".intake-row"));
  const at = rows.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  event.preventDefault();
  rows[Math.max(0, Math.min(rows.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))]?.focus();
}

export function IntakeScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = useProjectScreen(projectId);
  const { slug, project, isMember } = ctx;
  const on = project?.inbox_view === true;
  const [params, setParams] = useSearchParams();
  const selectedId = params.get("request");
  const snap = useSnapshot(intake);
  const list = snap.byProject[projectId] as IntakeList | undefined;
  const narrow = useIsNarrow();
  const userId = useSnapshot(session).user?.id;
  const [createOpen, setCreateOpen] = useState(false);
  const canTriage = ctx.projectRole >= ROLE.member;
  const live = on && isMember && Boolean(slug);

  useEffect(() => {
    if (project) document.title = `${t("intake.title")} · ${project.name}`;
  }, [project, t]);

  useEffect(() => {
    if (!live) return;
    void loadIntake(slug, projectId).catch(() => undefined);
    void loadIntakeCount(slug, projectId).catch(() => undefined);
    // The labels and people the filters offer (the triagers' menu).
    if (canTriage) void loadProjectMeta(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId);
  }, [slug, projectId, live, canTriage]);

  useEffect(() => {
    if (!live) return;
    void selectIntake(slug, projectId, selectedId).catch(() => undefined);
  }, [slug, projectId, selectedId, live]);

  useCreateShortcut("c", live, () => setCreateOpen(true));

  const select = (id: string | null) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (id) out.set("request", id);
        else out.delete("request");
        return out;
      },
      { replace: !narrow },
    );

  const blocked = projectScreenBlocked(
    ctx,
    {
      on,
      icon: Inbox,
      title: t("intake.disabled.title"),
      description: t("intake.disabled.description"),
      admin: { description: t("intake.disabled.adminDescription"), settings: t("intake.disabled.settings") },
    },
    t,
  );

  const selected = list?.selected && list.selected.id === selectedId ? (list.selected as IntakeRequest) : null;
  const showList = !narrow || !selectedId;
  const showDetail = !narrow || Boolean(selectedId);

  return (
    <>
      <PageHeader
        actions={
          live && !(narrow && selectedId) ? (
            <Button
              size="sm"
              aria-label={t("intake.create.button")}
              title={t("intake.create.button")}
              onClick={() => setCreateOpen(true)}
            >
              <Plus size={14} aria-hidden />
              <span className="intake-hide-narrow">{t("intake.create.button")}</span>
            </Button>
          ) : null
        }
      >
        <Link className="crumb intake-hide-narrow" to={`/${slug}/projects/`}>
          <FolderKanban size={14} aria-hidden />
          {t("projects.list.title")}
        </Link>
        <span className="crumb-sep intake-hide-narrow">/</span>
        {project ? (
          <Link className="crumb intake-hide-narrow" to={`/${slug}/projects/${project.id}/issues/`}>
            <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
            {project.name}
          </Link>
        ) : null}
        <span className="crumb-sep intake-hide-narrow">/</span>
        <Inbox size={16} aria-hidden className="muted" />
        <h1 className="page-header-h1">{t("intake.title")}</h1>
      </PageHeader>
      {blocked ? (
        <div className="page-body">{blocked}</div>
      ) : (
        <div className={clsx("intake-body", narrow && "intake-narrow")}>
          {showList ? (
            <section className="intake-list-pane" aria-label={t("intake.tabs.label")}>
              <ListPane
                slug={slug}
                projectId={projectId}
                identifier={project?.identifier}
                list={list}
                selectedId={selectedId}
                guest={!canTriage}
                onSelect={select}
                onCreate={() => setCreateOpen(true)}
              />
            </section>
          ) : null}
          {showDetail ? (
            <section className="intake-detail-pane" aria-label={selected?.issue.name ?? t("intake.noSelection.title")}>
              {selected ? (
                <IntakeDetail
                  slug={slug}
                  projectId={projectId}
                  identifier={project?.identifier}
                  request={selected}
                  members={ctx.members}
                  canTriage={canTriage}
                  userId={userId}
                  onBack={narrow ? () => select(null) : undefined}
                  onDeleted={() => select(null)}
                />
              ) : selectedId && list?.missingId === selectedId ? (
                <EmptyState
                  icon={Inbox}
                  title={t("intake.errors.notFound")}
                  action={
                    <Button variant="secondary" onClick={() => select(null)}>
                      {t("intake.back")}
                    </Button>
                  }
                />
              ) : selectedId ? (
                <SkeletonRows count={4} height={28} />
              ) : (
                <EmptyState
                  icon={Inbox}
                  title={t("intake.noSelection.title")}
                  description={t("intake.noSelection.hint")}
                />
              )}
            </section>
          ) : null}
        </div>
      )}
      {live ? (
        <CreateIntakeModal
          slug={slug}
          projectId={projectId}
          open={createOpen}
          onOpenChange={setCreateOpen}
          onCreated={(r) => select(r.id)}
        />
      ) : null}
    </>
  );
}

function ListPane({
  slug,
  projectId,
  identifier,
  list,
  selectedId,
  guest,
  onSelect,
  onCreate,
}: {
  slug: string;
  projectId: string;
  identifier: string | undefined;
  list: IntakeList | undefined;
  selectedId: string | null;
  guest: boolean;
  onSelect: (id: string) => void;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  const tab = list?.tab ?? "open";
  const filters = list?.filters ?? NO_INTAKE_FILTERS;
  const filtered = intakeFilterCount(filters) > 0;
  const items = (list?.items ?? []) as IntakeRequest[];

  return (
    <>
      <div className="intake-toolbar">
        <div className="intake-tabs" role="tablist" aria-label={t("intake.tabs.label")}>
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              className={clsx("intake-tab", tab === name && "active")}
              onClick={() => setIntakeTab(slug, projectId, name)}
            >
              {t(`intake.tabs.${name}`)}
              {tab === name && list && list.loader === "loaded" ? (
                <span className="intake-tab-count">{list.total}</span>
              ) : null}
            </button>
          ))}
        </div>
        <div className="intake-tools">
          <FilterMenu slug={slug} projectId={projectId} tab={tab} filters={filters} triage={!guest} />
          <SortMenu slug={slug} projectId={projectId} sort={list?.sort ?? "-created_at"} />
        </div>
      </div>
      {guest ? <p className="intake-guest-hint">{t("intake.guestHint")}</p> : null}
      <div className="intake-list-scroll">
        {!list || list.loader === "init-loader" ? (
          <SkeletonRows count={5} height={52} />
        ) : list.failed && items.length === 0 ? (
          <EmptyState
            icon={Inbox}
            title={t("intake.loadFailed")}
            action={
              <Button variant="secondary" onClick={() => void loadIntake(slug, projectId).catch(() => undefined)}>
                {t("intake.retry")}
              </Button>
            }
          />
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyState
              icon={ListFilter}
              title={t("intake.empty.filtered.title")}
              description={t("intake.empty.filtered.hint")}
              action={
                <Button variant="secondary" onClick={() => clearIntakeFilters(slug, projectId)}>
                  {t("intake.filters.clear")}
                </Button>
              }
            />
          ) : (
            <EmptyState
              icon={Inbox}
              title={t(`intake.empty.${tab}.title`)}
              description={t(`intake.empty.${tab}.hint`)}
              action={
                tab === "open" ? (
                  <Button onClick={onCreate}>
                    <Plus size={14} aria-hidden />
                    {t("intake.create.button")}
                  </Button>
                ) : undefined
              }
            />
          )
        ) : (
          <>
            <ul className="intake-list" aria-label={t(`intake.tabs.${tab}`)} onKeyDown={moveFocus}>
              {items.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className={clsx("intake-row", r.id === selectedId && "selected")}
                    aria-current={r.id === selectedId ? "true" : undefined}
                    onClick={() => onSelect(r.id)}
                  >
                    <span className="intake-row-top">
                      <span className="intake-key">{requestKey(identifier, r)}</span>
                      <StatusBadge request={r} />
                      <span className="intake-row-time" title={new Date(r.created_at).toLocaleString()}>
                        {ago(r.created_at)}
                      </span>
                    </span>
                    <span className="intake-row-name">{r.issue.name}</span>
                    <span className="intake-row-props">
                      <PriorityIcon priority={r.issue.priority} />
                      <span>{t(`workItems.priority.${r.issue.priority}`)}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {list.failed ? (
              <p className="intake-error" role="alert">
                {t("intake.moreFailed")}
              </p>
            ) : null}
            {list.nextCursor ? (
              <div className="list-more">
                <Button
                  variant="secondary"
                  size="sm"
                  loading={list.loader === "pagination"}
                  onClick={() => void loadIntake(slug, projectId, true).catch(() => undefined)}
                >
                  {t("intake.loadMore")}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </>
  );
}

function FilterMenu({
  slug,
  projectId,
  tab,
  filters,
  triage,
}: {
  slug: string;
  projectId: string;
  tab: IntakeTab;
  filters: IntakeFilters;
  /** A triager's menu also filters by label, assignee and submitter (a guest sees only their own). */
  triage: boolean;
}) {
  const { t } = useTranslation();
  const active = intakeFilterCount(filters);
  const meta = useSnapshot(projectMeta).byProject[projectId];
  const people = (meta?.members ?? []).map((m) => ({ id: m.member, name: personName(m.member_details) }));
  const toggle = (key: "labels" | "assignees" | "created_by", id: string, on: boolean) =>
    setIntakeFilters(slug, projectId, {
      [key]: on ? [...filters[key], id] : filters[key].filter((x) => x !== id),
    });
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant={active ? "primary" : "secondary"} size="sm" aria-label={t("intake.filters.label")}>
          <ListFilter size={14} aria-hidden />
          <span className="intake-hide-narrow">{t("intake.filters.label")}</span>
          {active ? <span className="intake-filter-count">{active}</span> : null}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-content intake-menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t("intake.filters.status")}</DropdownMenu.Label>
          {INTAKE_TAB_STATUSES[tab].map((status) => (
            <CheckMenuItem
              key={status}
              checked={filters.status.includes(status)}
              onChange={(on) =>
                setIntakeFilters(slug, projectId, {
                  status: on ? [...filters.status, status] : filters.status.filter((s) => s !== status),
                })
              }
            >
              {t(`intake.status.${STATUS_KEY[status]}`)}
            </CheckMenuItem>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Label className="menu-label">{t("intake.filters.priority")}</DropdownMenu.Label>
          {INTAKE_PRIORITIES.map((p) => (
            <CheckMenuItem
              key={p}
              checked={filters.priority.includes(p)}
              onChange={(on) =>
                setIntakeFilters(slug, projectId, {
                  priority: on ? [...filters.priority, p] : filters.priority.filter((x) => x !== p),
                })
              }
            >
              <PriorityIcon priority={p} />
              {t(`workItems.priority.${p}`)}
            </CheckMenuItem>
          ))}
          {triage && meta?.labels.length ? (
            <>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-label">{t("intake.filters.labels")}</DropdownMenu.Label>
              {meta.labels.map((label) => (
                <CheckMenuItem
                  key={label.id}
                  checked={filters.labels.includes(label.id)}
                  onChange={(on) => toggle("labels", label.id, on)}
                >
                  <span className="intake-label-dot" style={{ background: label.color }} aria-hidden />
                  {label.name}
                </CheckMenuItem>
              ))}
            </>
          ) : null}
          {triage && people.length ? (
            <>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-label">{t("intake.filters.assignees")}</DropdownMenu.Label>
              {people.map((p) => (
                <CheckMenuItem
                  key={p.id}
                  checked={filters.assignees.includes(p.id)}
                  onChange={(on) => toggle("assignees", p.id, on)}
                >
                  {p.name}
                </CheckMenuItem>
              ))}
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-label">{t("intake.filters.createdBy")}</DropdownMenu.Label>
              {people.map((p) => (
                <CheckMenuItem
                  key={p.id}
                  checked={filters.created_by.includes(p.id)}
                  onChange={(on) => toggle("created_by", p.id, on)}
                >
                  {p.name}
                </CheckMenuItem>
              ))}
            </>
          ) : null}
          {active ? (
            <>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Item className="menu-item" onSelect={() => clearIntakeFilters(slug, projectId)}>
                {t("intake.filters.clear")}
              </DropdownMenu.Item>
            </>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function SortMenu({ slug, projectId, sort }: { slug: string; projectId: string; sort: string }) {
  const { t } = useTranslation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="secondary" size="sm" aria-label={`${t("intake.sort.label")}: ${t(`intake.sort.${sort}`)}`}>
          <ArrowDownUp size={14} aria-hidden />
          <span className="intake-hide-narrow">{t(`intake.sort.${sort}`)}</span>
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-content intake-menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t("intake.sort.label")}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={sort}
            onValueChange={(v) => setIntakeSort(slug, projectId, v as (typeof INTAKE_SORTS)[number])}
          >
            {INTAKE_SORTS.map((s) => (
              <DropdownMenu.RadioItem key={s} value={s} className="menu-item intake-check-item">
                <span className="intake-check" aria-hidden>
                  {s === sort ? <Check size={13} /> : null}
                </span>
                {t(`intake.sort.${s}`)}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
