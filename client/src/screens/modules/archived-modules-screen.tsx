/**
 * /:ws/projects/:projectId/modules/archived/ — the project's archived modules: search, restore,
 * delete (with a confirmation). Restoring puts the module back in the modules page at once.
 */
import { ArchiveRestore, ArrowLeft, Boxes } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { EmptyState } from "../../components/ui";
import { deleteModule, loadArchivedModules, type Module, modules, restoreModule } from "../../stores/modules";
import { session } from "../../stores/session";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import {
  ListSearch,
  LoadFailedState,
  NoMatchState,
  RestoreButton,
  RowDeleteButton,
  SectionCrumb,
} from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { type ModuleProjectContext, modulesUrl, ProjectCrumbs, StatusIcon, useModuleProject } from "./module-bits";
import { DateRangeLabel } from "./module-list";
import { projectBlocked } from "./modules-screen";
import "../../components/ui/controls.css";
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
      <SectionCrumb to={modulesUrl(slug, projectId)} icon={Boxes} label={t("modules.title")} />
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
      <LoadFailedState
        icon={ArchiveRestore}
        title={t("modules.loadFailed")}
        retryLabel={t("modules.retry")}
        onRetry={() => void loadArchivedModules(slug, projectId, true).catch(() => undefined)}
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
      <NoMatchState
        title={t("modules.archived.noMatch", { search: search.trim() })}
        clearLabel={t("modules.archived.clearSearch")}
        onClear={() => setSearch("")}
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
        <ListSearch
          className="mo-search"
          placeholder={t("modules.searchPlaceholder")}
          label={t("modules.search")}
          value={search}
          onChange={setSearch}
        />
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
          <RestoreButton
            label={t("modules.archived.restore")}
            onRestore={async () => {
              if (await restoreModule(ctx.slug, module.project_id, module.id))
                toast.success(t("modules.archived.restored"));
            }}
          />
        ) : null}
        {canDelete ? (
          <RowDeleteButton
            className="ui-icon-btn mo-icon-btn"
            label={t("modules.actions.deleteNamed", { name: module.name })}
            title={t("modules.actions.delete")}
            onClick={onDelete}
          />
        ) : null}
      </span>
    </li>
  );
}
