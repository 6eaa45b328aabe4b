import { ROLE, type StateGroup } from "@tideline/shared";
import { format, parseISO } from "date-fns";
import { Archive, ArchiveRestore, FolderKanban, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { archivedWorkItems, loadArchivedWorkItems, restoreArchivedWorkItem } from "../../stores/archived-work-items";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { fetchProject, type ProjectDetail, projects } from "../../stores/projects";
import type { WorkItem } from "../../stores/work-items";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { StateGroupIcon } from "../workspace/project-settings/state-group-icon";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import "./archive-drafts.css";

/** Dates as the product shows them (MMM dd, yyyy). */
function formatDay(value: string | null): string {
  if (!value) return "";
  try {
    return format(parseISO(value), "MMM dd, yyyy");
  } catch {
    return value.slice(0, 10);
  }
}

/**
 * /:ws/projects/:projectId/archives/issues/: the project's archived work items, newest first,
 * searchable by name or number, each restorable by members and admins.
 */
export function ArchivedWorkItemsScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const { slug } = useCurrentWorkspace();
  const projectsSnap = useSnapshot(projects);
  const listSnap = useSnapshot(archivedWorkItems);
  const metaSnap = useSnapshot(projectMeta);
  const [query, setQuery] = useState("");

  useEffect(() => {
    if (!projects.details[projectId]) void fetchProject(slug, projectId).catch(() => undefined);
    void loadProjectMeta(slug, projectId).catch(() => undefined);
  }, [slug, projectId]);

  // Ask the server as the person types, a moment after they stop.
  useEffect(() => {
    const timer = window.setTimeout(
      () => void loadArchivedWorkItems(slug, projectId, { search: query }).catch(() => undefined),
      query ? 250 : 0,
    );
    return () => window.clearTimeout(timer);
  }, [slug, projectId, query]);

  const project = (projectsSnap.details[projectId] ?? projectsSnap.bySlug[slug]?.find((p) => p.id === projectId)) as
    | ProjectDetail
    | undefined;
  useEffect(() => {
    if (project) document.title = `${t("archivedItems.title")} · ${project.name}`;
  }, [project, t]);

  const list = listSnap.byProject[projectId];
  const states = metaSnap.byProject[projectId]?.states ?? [];
  const canRestore = (project?.member_role ?? 0) >= ROLE.member && !project?.archived_at;

  const header = (
    <PageHeader>
      <Link className="crumb" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep">/</span>
      {project ? (
        <Link className="crumb" to={`/${slug}/projects/${projectId}/issues/`}>
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          {project.name}
        </Link>
      ) : null}
      <span className="crumb-sep">/</span>
      <h1 className="page-header-h1">{t("archivedItems.title")}</h1>
    </PageHeader>
  );

  if (projectsSnap.missing[projectId]) {
    return (
      <>
        {header}
        <EmptyState
          icon={FolderKanban}
          title={t("projects.settings.notFound")}
          description={t("projects.settings.notFoundHint")}
          action={
            <Link className="btn btn-secondary" to={`/${slug}/projects/`}>
              {t("projects.settings.backToProjects")}
            </Link>
          }
        />
      </>
    );
  }

  return (
    <>
      {header}
      <div className="projects-toolbar">
        <div className="search-input">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("archivedItems.searchPlaceholder")}
            aria-label={t("archivedItems.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <span className="spacer" />
        {list?.status === "ready" ? (
          <span className="toolbar-count">{t("archivedItems.count", { count: list.total })}</span>
        ) : null}
      </div>

      {!list || (list.status === "loading" && list.items.length === 0) ? (
        <div className="project-rows-skeleton">
          <SkeletonRows count={6} height={44} />
        </div>
      ) : list.status === "error" && list.items.length === 0 ? (
        <EmptyState
          icon={Archive}
          title={t("archivedItems.loadFailed")}
          action={
            <Button
              variant="secondary"
              onClick={() => void loadArchivedWorkItems(slug, projectId, { search: query }).catch(() => undefined)}
            >
              {t("workspace.common.retry")}
            </Button>
          }
        />
      ) : list.items.length === 0 ? (
        list.search ? (
          <EmptyState icon={Search} title={t("archivedItems.noMatch")} description={t("archivedItems.noMatchHint")} />
        ) : (
          <EmptyState icon={Archive} title={t("archivedItems.emptyTitle")} description={t("archivedItems.emptyHint")} />
        )
      ) : (
        <>
          <ul className="item-rows" aria-label={t("archivedItems.title")}>
            {(list.items as WorkItem[]).map((item) => {
              const state = states.find((s) => s.id === item.state_id);
              const key = project ? `${project.identifier}-${item.sequence_id}` : `#${item.sequence_id}`;
              const to = `/${slug}/projects/${projectId}/archives/issues/${item.id}/`;
              return (
                <li key={item.id} className="item-row">
                  <Link className="item-row-link" to={to}>
                    <span className="item-key">{key}</span>
                    <span className="item-name">{item.name}</span>
                  </Link>
                  <span className="item-state">
                    {state ? (
                      <>
                        <StateGroupIcon group={state.group} color={state.color} />
                        <span>{state.name}</span>
                      </>
                    ) : item.state__group ? (
                      <>
                        <StateGroupIcon group={item.state__group as StateGroup} color="var(--color-text-subtle)" />
                        <span>{t(`stateSettings.groups.${item.state__group}`)}</span>
                      </>
                    ) : null}
                  </span>
                  <span className="item-date" title={item.archived_at ?? undefined}>
                    {t("archivedItems.archivedOn", { date: formatDay(item.archived_at) })}
                  </span>
                  {canRestore ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t("archivedItems.restoreNamed", { key })}
                      onClick={() => void restoreArchivedWorkItem(slug, projectId, item.id)}
                    >
                      <ArchiveRestore size={13} aria-hidden />
                      {t("archivedItems.restore")}
                    </Button>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {list.next ? (
            <div className="list-more">
              <Button
                variant="secondary"
                size="sm"
                loading={list.loadingMore}
                onClick={() => void loadArchivedWorkItems(slug, projectId, { more: true }).catch(() => undefined)}
              >
                {t("archivedItems.loadMore")}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
