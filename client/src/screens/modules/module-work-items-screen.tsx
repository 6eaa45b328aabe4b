/**
 * /:ws/projects/:projectId/modules/:moduleId/ — one module's work items: the shared work-items
 * board scoped to the module (layouts, filters saved per user and module, quick add into it),
 * with "Add existing work items" and the module's details panel. The detail (links, breakdowns,
 * burndown) is reloaded when the module's items change and after a reconnection.
 */
import { type DomainEvent, ROLE } from "@tideline/shared";
import { ArrowLeft, Boxes, ListPlus, Plus } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { useDropPrepaint } from "../../lib/prepaint";
import { watchProjectLive } from "../../stores/live-board";
import { applyModuleLinkEvent, loadModuleDetail, loadModules, type ModuleDetail, modules } from "../../stores/modules";
import { WorkItemsBoard } from "../work-items/work-items-board";
import { SectionCrumb } from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { AddExistingModal } from "./add-existing-modal";
import { modulesUrl, ProjectCrumbs, useModuleProject } from "./module-bits";
import { ModuleMenu } from "./module-menu";
import { ModuleModal } from "./module-modal";
import { ModulePanel } from "./module-panel";
import { projectBlocked } from "./modules-screen";
import "./modules.css";

export function ModuleWorkItemsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { projectId = "", moduleId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(modules);
  const entry = snap.details[moduleId];
  const listed = snap.byProject[projectId]?.list.find((m) => m.id === moduleId);
  const detail = entry?.detail as ModuleDetail | null | undefined;
  const [addOpen, setAddOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);

  // Reloading the detail on every item event would be wasteful: coalesce into one call.
  const timer = useRef<number | undefined>(undefined);
  const reload = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void loadModuleDetail(slug, projectId, moduleId), 400);
  }, [slug, projectId, moduleId]);

  useEffect(() => {
    if (!isMember) return;
    void loadModuleDetail(slug, projectId, moduleId);
    void loadModules(slug, projectId).catch(() => undefined);
    const stop = watchProjectLive(slug, projectId, {
      onEvent: (event: DomainEvent) => {
        if (event.type.startsWith("module.link.")) applyModuleLinkEvent(event);
        else if (event.type.startsWith("issue.") || (event.type === "module.updated" && event.entity_id === moduleId))
          reload();
      },
      onSynced: reload,
    });
    return () => {
      stop();
      window.clearTimeout(timer.current);
    };
  }, [slug, projectId, moduleId, isMember, reload]);

  const module = detail ?? null;
  const name = module?.name ?? listed?.name ?? "";
  useEffect(() => {
    if (name) document.title = `${name} · ${t("modules.title")}`;
  }, [name, t]);

  const crumbs = <SectionCrumb to={modulesUrl(slug, projectId)} icon={Boxes} label={t("modules.title")} />;

  const blocked = projectBlocked(ctx, t);
  const missing = entry?.status === "missing";
  const archived = Boolean(module?.archived_at);
  // Not the board: the picture of it from the last visit goes (lib/prepaint.ts).
  useDropPrepaint(Boolean(blocked || missing || archived));
  if (blocked || missing || archived) {
    return (
      <div className="mo-screen">
        <PageHeader>
          <ProjectCrumbs slug={slug} project={project} />
          {crumbs}
        </PageHeader>
        {blocked ?? (
          <EmptyState
            icon={Boxes}
            title={archived ? t("modules.detail.archivedTitle") : t("modules.detail.notFound")}
            description={archived ? t("modules.detail.archivedDescription") : t("modules.detail.notFoundHint")}
            action={
              <Link
                className="btn btn-secondary"
                to={archived ? `${modulesUrl(slug, projectId)}archived/` : modulesUrl(slug, projectId)}
              >
                <ArrowLeft size={14} aria-hidden />
                {archived ? t("modules.archived.open") : t("modules.detail.back")}
              </Link>
            }
          />
        )}
      </div>
    );
  }

  const canEdit = ctx.canEdit;
  const actions = (
    <>
      {canEdit ? (
        <Button size="sm" variant="secondary" onClick={() => setAddOpen(true)}>
          <ListPlus size={14} aria-hidden />
          <span className="mo-tool-text">{t("modules.addExisting.button")}</span>
        </Button>
      ) : null}
      {module ? (
        <ModuleMenu
          ctx={ctx}
          module={module}
          onEdit={() => setEditOpen(true)}
          onDeleted={() => navigate(modulesUrl(slug, projectId))}
          onArchived={() => navigate(modulesUrl(slug, projectId))}
        />
      ) : null}
    </>
  );

  const panel = module ? (
    <ModulePanel ctx={ctx} module={module} />
  ) : (
    <div className="mo-panel">
      <SkeletonRows count={8} />
    </div>
  );

  return (
    <>
      <WorkItemsBoard
        scope={{ kind: "module", moduleId }}
        title={name || t("modules.title")}
        crumbs={crumbs}
        actions={actions}
        panel={panel}
        canAdd={canEdit}
        empty={{
          title: t("modules.detail.emptyTitle"),
          description: canEdit ? t("modules.detail.emptyDescription") : t("modules.detail.emptyGuest"),
          action: canEdit ? (
            <Button onClick={() => setAddOpen(true)}>
              <Plus size={14} aria-hidden />
              {t("modules.addExisting.button")}
            </Button>
          ) : undefined,
        }}
      />
      {canEdit && isMember ? (
        <AddExistingModal
          open={addOpen}
          onOpenChange={setAddOpen}
          slug={slug}
          projectId={projectId}
          projectIdentifier={project?.identifier ?? ""}
          moduleId={moduleId}
        />
      ) : null}
      {module && isMember ? (
        <ModuleModal
          open={editOpen}
          onOpenChange={setEditOpen}
          slug={slug}
          projectId={projectId}
          members={ctx.members}
          module={module}
        />
      ) : null}
    </>
  );
}

/** Guests below member can't add; kept here so the role rule reads in one place. */
export const canAddToModule = (role: number) => role >= ROLE.member;
