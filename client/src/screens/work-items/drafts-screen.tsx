import { ROLE } from "@tideline/shared";
import { format, parseISO } from "date-fns";
import { FilePen, FolderInput, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState, Select } from "../../components/ui";
import { readLocal, writeLocal } from "../../lib/local-storage";
import {
  createDraft,
  deleteDraft,
  drafts,
  isTempDraft,
  loadDrafts,
  publishDraft,
  renameDraft,
} from "../../stores/drafts";
import { type Project, projects } from "../../stores/projects";
import type { WorkItem } from "../../stores/work-items";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import "./archive-drafts.css";

const LAST_PROJECT_KEY = "tideline:drafts:project";

function formatDay(value: string): string {
  try {
    return format(parseISO(value), "MMM dd, yyyy");
  } catch {
    return value.slice(0, 10);
  }
}

/**
 * /:ws/drafts/: the caller's drafts in this workspace (admins and members). Write one (project +
 * title), rename it in place, delete it, or move it to its project as a real work item.
 */
export function DraftsScreen() {
  const { t } = useTranslation();
  const { slug, role, workspace } = useCurrentWorkspace();
  const snap = useSnapshot(drafts);
  const projectsSnap = useSnapshot(projects);
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<WorkItem | null>(null);

  useEffect(() => {
    void loadDrafts(slug).catch(() => undefined);
  }, [slug]);

  useEffect(() => {
    document.title = `${t("drafts.title")} · ${workspace?.name ?? ""}`;
  }, [t, workspace?.name]);

  if (role !== null && role < ROLE.member) return <Navigate to={`/${slug}/`} replace />;

  const list = snap.bySlug[slug];
  const allProjects = (projectsSnap.bySlug[slug] ?? []) as Project[];
  const writable = allProjects.filter((p) => p.is_member && (p.member_role ?? 0) >= ROLE.member);
  const projectOf = (id: string) => allProjects.find((p) => p.id === id);

  async function publish(draft: WorkItem) {
    const issue = await publishDraft(slug, draft.id);
    if (!issue) return;
    const project = projectOf(issue.project_id);
    const key = project ? `${project.identifier}-${issue.sequence_id}` : null;
    toast.success(key ? t("drafts.movedKey", { key }) : t("drafts.moved"), {
      action: key ? { label: t("drafts.open"), onClick: () => navigate(`/${slug}/browse/${key}/`) } : undefined,
    });
  }

  return (
    <>
      <PageHeader>
        <FilePen size={16} aria-hidden className="muted" />
        <h1 className="page-header-h1">{t("drafts.title")}</h1>
        {list?.status === "ready" && list.total > 0 ? <span className="toolbar-count">{list.total}</span> : null}
      </PageHeader>
      <div className="page-body drafts-body">
        <DraftComposer projects={writable} />
        {!list || (list.status === "loading" && list.items.length === 0) ? (
          <SkeletonRows count={5} height={44} />
        ) : list.status === "error" && list.items.length === 0 ? (
          <EmptyState
            icon={FilePen}
            title={t("drafts.loadFailed")}
            action={
              <Button variant="secondary" onClick={() => void loadDrafts(slug).catch(() => undefined)}>
                {t("workspace.common.retry")}
              </Button>
            }
          />
        ) : list.items.length === 0 ? (
          <EmptyState icon={FilePen} title={t("drafts.emptyTitle")} description={t("drafts.emptyHint")} />
        ) : (
          <>
            <ul className="item-rows item-rows-boxed" aria-label={t("drafts.title")}>
              {(list.items as WorkItem[]).map((draft) => (
                <DraftRow
                  key={draft.id}
                  draft={draft}
                  project={projectOf(draft.project_id)}
                  onPublish={() => void publish(draft)}
                  onDelete={() => setDeleting(draft)}
                />
              ))}
            </ul>
            {list.next ? (
              <div className="list-more">
                <Button
                  variant="secondary"
                  size="sm"
                  loading={list.loadingMore}
                  onClick={() => void loadDrafts(slug, true).catch(() => undefined)}
                >
                  {t("drafts.loadMore")}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("drafts.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("drafts.deleteDescription")}
        confirmLabel={t("drafts.delete")}
        onConfirm={async () => {
          const target = deleting;
          setDeleting(null);
          if (target) await deleteDraft(slug, target.id);
        }}
      />
    </>
  );
}

/** Project picker + title: Enter saves the draft and keeps the project for the next one. */
function DraftComposer({ projects: choices }: { projects: Project[] }) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const [projectId, setProjectId] = useState(() => readLocal(LAST_PROJECT_KEY, ""));
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const chosen = choices.some((p) => p.id === projectId) ? projectId : (choices[0]?.id ?? "");

  async function submit(event: FormEvent) {
    event.preventDefault();
    const title = name.trim();
    if (!chosen) return setError(t("drafts.pickProject"));
    if (!title) return setError(t("drafts.titleRequired"));
    setName("");
    setError(null);
    writeLocal(LAST_PROJECT_KEY, chosen);
    const saved = await createDraft(slug, { project_id: chosen, name: title });
    // Refused: give the text back so nothing typed is lost.
    if (!saved) setName((current) => current || title);
    input.current?.focus();
  }

  if (choices.length === 0) {
    return <p className="muted drafts-no-project">{t("drafts.noProjects")}</p>;
  }

  return (
    <form className="draft-composer" onSubmit={submit} aria-label={t("drafts.newDraft")}>
      <Select
        className="draft-project"
        label={t("drafts.project")}
        value={chosen}
        onValueChange={setProjectId}
        options={choices.map((p) => ({ value: p.id, label: `${p.identifier} · ${p.name}` }))}
      />
      <input
        ref={input}
        className="input draft-title"
        placeholder={t("drafts.titlePlaceholder")}
        aria-label={t("drafts.titleLabel")}
        aria-invalid={error ? true : undefined}
        value={name}
        maxLength={255}
        onChange={(e) => {
          setName(e.target.value);
          setError(null);
        }}
      />
      <Button type="submit" disabled={!name.trim()}>
        {t("drafts.save")}
      </Button>
      {error ? (
        <span className="field-error draft-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}

function DraftRow({
  draft,
  project,
  onPublish,
  onDelete,
}: {
  draft: WorkItem;
  project: Project | undefined;
  onPublish: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(draft.name);
  const pending = isTempDraft(draft.id);
  useEffect(() => {
    if (!editing) setValue(draft.name);
  }, [draft.name, editing]);

  function commit() {
    setEditing(false);
    const name = value.trim();
    if (!name) return setValue(draft.name);
    if (name !== draft.name) void renameDraft(slug, draft.id, name);
  }

  return (
    <li className={pending ? "item-row is-pending" : "item-row"}>
      <span className="item-project" title={project?.name}>
        {project ? <ProjectLogo name={project.name} logo={project.logo_props} size={18} /> : null}
        <span className="item-key">{project?.identifier ?? ""}</span>
      </span>
      {editing ? (
        <input
          className="input input-compact item-name-input"
          aria-label={t("drafts.titleLabel")}
          value={value}
          maxLength={255}
          // biome-ignore lint/a11y/noAutofocus: editing starts because the person clicked the title
          autoFocus
          onChange={(e) => setValue(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              commit();
            } else if (e.key === "Escape") {
              e.preventDefault();
              setValue(draft.name);
              setEditing(false);
            }
          }}
        />
      ) : (
        <button
          type="button"
          className="item-name-btn"
          title={t("drafts.rename")}
          aria-label={t("drafts.renameNamed", { name: draft.name })}
          disabled={pending}
          onClick={() => setEditing(true)}
        >
          <span className="item-name">{draft.name}</span>
        </button>
      )}
      <span className="item-date">{formatDay(draft.created_at)}</span>
      <Button size="sm" variant="secondary" disabled={pending} onClick={onPublish}>
        <FolderInput size={13} aria-hidden />
        {t("drafts.moveToProject")}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="icon-btn"
        aria-label={t("drafts.deleteNamed", { name: draft.name })}
        title={t("drafts.delete")}
        disabled={pending}
        onClick={onDelete}
      >
        <Trash2 size={14} aria-hidden />
      </Button>
    </li>
  );
}
