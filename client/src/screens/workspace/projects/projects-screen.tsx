import { NETWORK } from "@tideline/shared";
import {
  Archive,
  ArchiveRestore,
  FolderKanban,
  Globe,
  Lock,
  Plus,
  Search,
  Settings,
  Star,
  Trash2,
  Users,
} from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../../components/ui";
import { toggleFavoriteProject } from "../../../stores/favorites";
import {
  deleteProject,
  fetchArchivedProjects,
  fetchProjectStats,
  fetchProjects,
  joinProject,
  type Project,
  projects,
  restoreProject,
} from "../../../stores/projects";
import { ConfirmModal } from "../components/confirm-modal";
import { ProjectLogo } from "../components/logos";
import { PageHeader } from "../components/page-header";
import { SkeletonRows } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace, useShell } from "../use-workspace";

/** /:ws/projects/ and /:ws/projects/archives/: every project you can see, with join and favorite. */
export function ProjectsScreen({ archived = false }: { archived?: boolean }) {
  const { t } = useTranslation();
  const { slug, role, workspace } = useCurrentWorkspace();
  const snap = useSnapshot(projects);
  const shell = useShell();
  const [query, setQuery] = useState("");
  const [deleting, setDeleting] = useState<Project | null>(null);

  useEffect(() => {
    if (archived) void fetchArchivedProjects(slug).catch(() => undefined);
    else void fetchProjects(slug).catch(() => undefined);
    void fetchProjectStats(slug).catch(() => undefined);
  }, [slug, archived]);

  useEffect(() => {
    document.title = `${archived ? t("projects.list.archivedTitle") : t("projects.list.title")} · ${workspace?.name ?? ""}`;
  }, [archived, workspace?.name, t]);

  // "c" opens the create modal, as in the rest of the product's lists.
  useEffect(() => {
    if (archived || !can.createProject(role)) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== "c" || event.metaKey || event.ctrlKey || event.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (document.querySelector("[role=dialog]")) return;
      event.preventDefault();
      shell.openCreateProject();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [archived, role, shell]);

  const list = archived ? snap.archivedBySlug[slug] : snap.bySlug[slug];
  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!list) return undefined;
    if (!q) return list;
    return list.filter((p) => p.name.toLowerCase().includes(q) || p.identifier.toLowerCase().includes(q));
  }, [list, query]);

  const canCreate = can.createProject(role);

  return (
    <>
      <PageHeader
        actions={
          canCreate && !archived && list && list.length > 0 ? (
            <Button size="sm" onClick={shell.openCreateProject} title={t("projects.list.createShortcut")}>
              <Plus size={14} aria-hidden />
              {t("projects.create.button")}
            </Button>
          ) : null
        }
      >
        <FolderKanban size={16} aria-hidden className="muted" />
        <h1 style={{ fontSize: 14, fontWeight: 500 }}>{t("projects.list.title")}</h1>
      </PageHeader>
      <div className="projects-toolbar">
        <nav className="tabs" aria-label={t("projects.list.filter")}>
          <NavLink to={`/${slug}/projects/`} end className={({ isActive }) => (isActive ? "tab active" : "tab")}>
            {t("projects.list.all")}
          </NavLink>
          {can.seeArchives(role) ? (
            <NavLink to={`/${slug}/projects/archives/`} className={({ isActive }) => (isActive ? "tab active" : "tab")}>
              <Archive size={13} aria-hidden />
              {t("projects.list.archived")}
            </NavLink>
          ) : null}
        </nav>
        <div className="spacer" />
        <div className="search-input">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("projects.list.search")}
            aria-label={t("projects.list.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      </div>

      {filtered === undefined ? (
        <div className="project-rows-skeleton">
          <SkeletonRows count={5} height={44} />
        </div>
      ) : filtered.length === 0 ? (
        query ? (
          <EmptyState icon={Search} title={t("projects.list.noMatch")} description={t("projects.list.noMatchHint")} />
        ) : archived ? (
          <EmptyState
            icon={Archive}
            title={t("projects.list.noArchived")}
            description={t("projects.list.noArchivedHint")}
          />
        ) : (
          <EmptyState
            icon={FolderKanban}
            title={t("projects.list.empty")}
            description={canCreate ? t("projects.list.emptyHint") : t("projects.list.emptyHintGuest")}
            action={
              canCreate ? (
                <Button onClick={shell.openCreateProject}>
                  <Plus size={14} aria-hidden />
                  {t("projects.list.emptyAction")}
                </Button>
              ) : null
            }
          />
        )
      ) : (
        <ul
          className="project-rows"
          aria-label={t("projects.list.title")}
          style={{ listStyle: "none", margin: 0, padding: 0 }}
        >
          {filtered.map((p) => (
            <ProjectRow key={p.id} project={p} archived={archived} onDelete={() => setDeleting(p)} />
          ))}
        </ul>
      )}

      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("projects.delete.title", { name: deleting?.name ?? "" })}
        description={t("projects.delete.description")}
        typeToConfirm={deleting?.name}
        confirmLabel={t("projects.delete.confirm")}
        onConfirm={async () => {
          if (deleting && (await deleteProject(slug, deleting.id))) setDeleting(null);
        }}
      />
    </>
  );
}

export function ArchivedProjectsScreen() {
  return <ProjectsScreen archived />;
}

function ProjectRow({ project, archived, onDelete }: { project: Project; archived: boolean; onDelete: () => void }) {
  const { t } = useTranslation();
  const { slug, role } = useCurrentWorkspace();
  const counts = useSnapshot(projects).memberCounts;
  const [joining, setJoining] = useState(false);
  const count = counts[project.id];
  const isAdmin = (project.member_role ?? 0) >= 20;
  const title = (
    <>
      <ProjectLogo name={project.name} logo={project.logo_props} size={22} />
      <span className="project-row-name">{project.name}</span>
      <span className="project-identifier">{project.identifier}</span>
    </>
  );
  return (
    <li className="project-row">
      {project.is_member ? (
        <Link className="project-row-link" to={`/${slug}/projects/${project.id}/issues/`}>
          {title}
        </Link>
      ) : (
        <div className="project-row-link">{title}</div>
      )}
      <div className="project-row-meta">
        <span className="meta-item" title={t("projects.list.members")}>
          <Users size={13} aria-hidden />
          <span>{count ?? "–"}</span>
          <span className="visually-hidden">{t("projects.list.members")}</span>
        </span>
        <span
          className="meta-item"
          title={project.network === NETWORK.public ? t("projects.network.public") : t("projects.network.private")}
        >
          {project.network === NETWORK.public ? <Globe size={13} aria-hidden /> : <Lock size={13} aria-hidden />}
          <span className="visually-hidden">
            {project.network === NETWORK.public ? t("projects.network.public") : t("projects.network.private")}
          </span>
        </span>
        {archived ? (
          isAdmin ? (
            <>
              <Button size="sm" variant="secondary" onClick={() => void restoreProject(slug, project.id)}>
                <ArchiveRestore size={13} aria-hidden />
                {t("projects.list.restore")}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="icon-btn"
                aria-label={t("projects.list.deleteNamed", { name: project.name })}
                onClick={onDelete}
              >
                <Trash2 size={14} />
              </Button>
            </>
          ) : null
        ) : project.is_member ? (
          <>
            <Link
              className="btn btn-ghost btn-sm icon-btn"
              to={`/${slug}/projects/${project.id}/settings/`}
              aria-label={t("workItems.projectSettingsNamed", { name: project.name })}
              title={t("workItems.projectSettingsNamed", { name: project.name })}
            >
              <Settings size={14} aria-hidden />
            </Link>
            <button
              type="button"
              className="star-btn"
              aria-pressed={project.is_favorite}
              aria-label={
                project.is_favorite
                  ? t("projects.list.unfavorite", { name: project.name })
                  : t("projects.list.favorite", { name: project.name })
              }
              onClick={() => void toggleFavoriteProject(slug, project)}
            >
              <Star size={14} />
            </button>
          </>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            loading={joining}
            onClick={async () => {
              setJoining(true);
              await joinProject(slug, project.id, role ?? 5);
              setJoining(false);
            }}
          >
            {t("projects.list.join")}
          </Button>
        )}
      </div>
    </li>
  );
}
