/**
 * /:ws/projects/:projectId/modules/archived/ — the project's archived modules: search, restore,
 * delete (with a confirmation). Restoring puts the module back in the modules page at once.
 */
import { ArchiveRestore, ArrowLeft, Boxes, RefreshCw, Search, SearchX, Trash2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { deleteModule, loadArchivedModules, type Module, modules, restoreModule } from "../../stores/modules";
import { session } from "../../stores/session";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { type ModuleProjectContext, modulesUrl, ProjectCrumbs, StatusIcon, useModuleProject } from "./module-bits";
import { DateRangeLabel } from "./module-list";
import { projectBlocked } from "./modules-screen";
import "./modules.css";

export function ArchivedModulesScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(modules);
  const entry = snap.archived[projectId];
  const [search, setSearch] = useState("");
  const [deleting, setDeleting] = useState<Module | null>(null);
  const userId = useSnapshot(session).user?.id;

  useEffect(() => {
    if (isMember) void loadArchivedModules(slug, projectId, true).catch(() => undefined);
  }, [slug, projectId, isMember]);
  useEffect(() => {
    if (project) document.title = `${t("modules.archived.title")} · ${project.name}`;
  }, [project, t]);

  const all = (entry?.list ?? []) as readonly Module[];
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return all.filter((m) => !q || m.name.toLowerCase().includes(q));
  }, [all, search]);

  const header = (
    <PageHeader>
      <ProjectCrumbs slug={slug} project={project} />
      <Link className="crumb" to={modulesUrl(slug, projectId)}>
        <Boxes size={14} aria-hidden />
        {t("modules.title")}
      </Link>
      <span className="crumb-sep">/</span>
      <h1 className="mo-h1">{t("modules.archived.title")}</h1>
    </PageHeader>
  );
  const blocked = projectBlocked(ctx, t);
  if (blocked)
    return (
      <div className="mo-screen">
        {header}
        {blocked}
      </div>
    );

  let body: React.ReactNode;
  if (!entry || (entry.status === "loading" && all.length === 0)) body = <SkeletonRows count={4} height={52} />;
  else if (entry.status === "error" && all.length === 0)
    // A failed load is not "no archived modules": say so and offer a retry.
    body = (
      <EmptyState
        icon={ArchiveRestore}
        title={t("modules.loadFailed")}
        action={
          <Button
            variant="secondary"
            onClick={() => void loadArchivedModules(slug, projectId, true).catch(() => undefined)}
          >
            <RefreshCw size={14} aria-hidden />
            {t("modules.retry")}
          </Button>
        }
      />
    );
  else if (all.length === 0)
    body = (
      <EmptyState
        icon={ArchiveRestore}
        title={t("modules.archived.emptyTitle")}
        description={t("modules.archived.emptyDescription")}
        action={
          <Link className="btn btn-secondary" to={modulesUrl(slug, projectId)}>
            <ArrowLeft size={14} aria-hidden />
            {t("modules.detail.back")}
          </Link>
        }
      />
    );
  else if (shown.length === 0)
    body = (
      <EmptyState
        icon={SearchX}
        title={t("modules.archived.noMatch", { search: search.trim() })}
        action={
          <Button variant="secondary" onClick={() => setSearch("")}>
            {t("modules.archived.clearSearch")}
          </Button>
        }
      />
    );
  else
    body = (
      <ul className="mo-rows" aria-label={t("modules.archived.title")}>
        {shown.map((m) => (
          <ArchivedModuleRow
            key={m.id}
            module={m}
            ctx={ctx}
            canDelete={ctx.isAdmin || (ctx.canEdit && m.created_by === userId)}
            onDelete={() => setDeleting(m)}
          />
        ))}
      </ul>
    );

  return (
    <div className="mo-screen">
      {header}
      <div className="mo-toolbar">
        <div className="search-input mo-search">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("modules.searchPlaceholder")}
            aria-label={t("modules.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <div className="mo-body">{body}</div>
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={t("modules.delete.title")}
        description={t("modules.delete.description", { name: deleting?.name ?? "" })}
        confirmLabel={t("modules.delete.confirm")}
        onConfirm={async () => {
          if (!deleting) return;
          const ok = await deleteModule(slug, projectId, deleting.id);
          setDeleting(null);
          if (ok) toast.success(t("modules.actions.deleted"));
        }}
      />
    </div>
  );
}

/** One archived module: its dates, Restore (busy while the call runs) and delete for its creator or an admin. */
function ArchivedModuleRow({
  module,
  ctx,
  canDelete,
  onDelete,
}: {
  module: Module;
  ctx: ModuleProjectContext;
  canDelete: boolean;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <li className="mo-row" data-testid="archived-module-row">
      <span className="mo-row-link">
        <StatusIcon status={module.status} />
        <span className="mo-row-name">{module.name}</span>
      </span>
      <span className="mo-row-meta">
        <span className="mo-hide-phone">
          <DateRangeLabel module={module} />
        </span>
        {ctx.canEdit ? (
          <Button
            size="sm"
            variant="secondary"
            loading={busy}
            onClick={async () => {
              setBusy(true);
              const ok = await restoreModule(ctx.slug, module.project_id, module.id);
              setBusy(false);
              if (ok) toast.success(t("modules.archived.restored"));
            }}
          >
            <ArchiveRestore size={14} aria-hidden />
            {t("modules.archived.restore")}
          </Button>
        ) : null}
        {canDelete ? (
          <button
            type="button"
            className="mo-icon-btn"
            aria-label={t("modules.actions.deleteNamed", { name: module.name })}
            title={t("modules.actions.delete")}
            onClick={onDelete}
          >
            <Trash2 size={14} aria-hidden />
          </button>
        ) : null}
      </span>
    </li>
  );
}
