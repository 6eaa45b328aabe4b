/**
 * The work-item detail both the full page and the peek render: a header (key with copy-link,
 * subscribe, the … menu, and per mode open-full-page/close or restore), the title, reactions,
 * description, widgets (sub-items, relations, links, attachments — open by default), the
 * activity timeline with the comment box, and the properties (a column on the page, a block on
 * the peek).
 */
import { isClosedStateGroup } from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  ArchiveRestore,
  Bell,
  BellOff,
  Ellipsis,
  Link as LinkIcon,
  Maximize2,
  PanelRight,
  Trash2,
  X,
} from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { preloadRichTextEditor } from "../../components/editor";
import { WaitingToSync } from "../../components/offline/waiting-to-sync";
import { Banner, Button, Spinner } from "../../components/ui";
import { loadProjectMeta } from "../../stores/project-meta";
import { usePanelCollapsed } from "../../stores/sidebar-preferences";
import {
  loadDetailExtras,
  restoreWorkItem,
  setSubscribed,
  toggleWorkItemReaction,
} from "../../stores/work-item-detail";
import { archiveWorkItem, deleteWorkItem, useWorkItem } from "../../stores/work-items";
import { epicPath, epicsPath } from "../epics/epic-logic";
import { EpicProgress } from "../epics/epic-progress";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import { Attachments } from "./attachments";
import { workItemKey } from "./format";
import { Links } from "./links";
import { Properties } from "./properties";
import { ReactionBar } from "./reactions";
import { Relations } from "./relations";
import { SubItems } from "./sub-items";
import { Timeline } from "./timeline";
import { DescriptionField, TitleField } from "./title-description";
import {
  browsePath,
  DetailContext,
  type DetailContextValue,
  permissionsFor,
  useDetail,
  useProject,
} from "./use-detail";
import "./work-item.css";

type Props = {
  slug: string;
  projectId: string;
  workItemId: string;
  mode: "page" | "peek";
  archived?: boolean;
  onClose?: () => void;
  /** Breadcrumbs or anything the page puts at the left of the header. */
  lead?: ReactNode;
};

export function WorkItemDetail({ slug, projectId, workItemId, mode, archived = false, onClose, lead }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const item = useWorkItem(workItemId);
  const detail = useDetail(workItemId);
  const project = useProject(slug, projectId);
  const identifier = detail?.projectIdentifier || project?.identifier || "";
  const { canEdit, isProjectAdmin } = permissionsFor(project);
  const [confirm, setConfirm] = useState<"delete" | "archive" | null>(null);
  // The page's properties column: collapsed or not, kept per person, apart for epics (the reference
  // keeps a work item's and an epic's detail sidebar apart too).
  const [workItemPropsCollapsed, setWorkItemPropsCollapsed] = usePanelCollapsed("workItemDetail");
  const [epicPropsCollapsed, setEpicPropsCollapsed] = usePanelCollapsed("epicDetail");
  const asideId = `wid-aside-${workItemId}`;

  useEffect(() => {
    preloadRichTextEditor();
    void loadProjectMeta(slug, projectId).catch(() => undefined);
    void loadDetailExtras(slug, projectId, workItemId);
  }, [slug, projectId, workItemId]);

  const isArchived = archived || Boolean(item?.archived_at);
  const ctx = useMemo<DetailContextValue>(
    () => ({
      slug,
      projectId,
      workItemId,
      identifier,
      canEdit,
      isProjectAdmin,
      archived: isArchived,
      mode,
    }),
    [slug, projectId, workItemId, identifier, canEdit, isProjectAdmin, isArchived, mode],
  );

  // The entry can exist before the item's answer (the history and widgets load in parallel):
  // the description editor starts from the loaded text, so wait for it.
  if (!item) return null;
  if (detail?.status !== "ready")
    return (
      <div className="full-center">
        <Spinner />
      </div>
    );
  const key = workItemKey(identifier, item.sequence_id);
  const link = `${window.location.origin}${browsePath(slug, key)}`;
  const propsCollapsed = item.is_epic ? epicPropsCollapsed : workItemPropsCollapsed;
  const setPropsCollapsed = item.is_epic ? setEpicPropsCollapsed : setWorkItemPropsCollapsed;

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t("workItem.header.linkCopied"));
    } catch {
      toast.error(t("workItem.header.copyFailed"), { description: link });
    }
  }

  async function onArchive() {
    setConfirm(null);
    // Open items are refused by the server, whose reason shows in the toast.
    const ok = await archiveWorkItem(slug, projectId, workItemId);
    if (ok) toast.success(t("workItem.archive.done"));
  }

  async function onDelete() {
    setConfirm(null);
    const ok = await deleteWorkItem(slug, projectId, workItemId);
    if (!ok) return;
    toast.success(t("workItem.delete.done"));
    if (onClose) onClose();
    else navigate(item?.is_epic ? epicsPath(slug, projectId) : `/${slug}/projects/${projectId}/issues/`);
  }

  async function onRestore() {
    const ok = await restoreWorkItem(slug, projectId, workItemId);
    if (ok) {
      toast.success(t("workItem.archived.restored"));
      if (mode === "page") navigate(browsePath(slug, key), { replace: true });
    }
  }

  const header = (
    <div className="wid-header">
      {lead ?? null}
      <span className="wid-header-key">{key}</span>
      <button
        type="button"
        className="wid-icon-btn"
        aria-label={t("workItem.header.copyLink")}
        title={t("workItem.header.copyLink")}
        onClick={() => void copyLink()}
      >
        <LinkIcon size={14} aria-hidden />
      </button>
      <WaitingToSync id={workItemId} label />
      <span className="spacer" />
      {isArchived && canEdit ? (
        <Button size="sm" variant="secondary" onClick={() => void onRestore()}>
          <ArchiveRestore size={14} aria-hidden />
          {t("workItem.archived.restore")}
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        aria-pressed={detail.isSubscribed}
        onClick={() => void setSubscribed(slug, projectId, workItemId, !detail.isSubscribed)}
      >
        {detail.isSubscribed ? <BellOff size={14} aria-hidden /> : <Bell size={14} aria-hidden />}
        <span className="wid-btn-text">
          {detail.isSubscribed ? t("workItem.header.unsubscribe") : t("workItem.header.subscribe")}
        </span>
      </Button>
      {mode === "page" ? (
        <button
          type="button"
          className={clsx("wid-icon-btn", "wid-props-toggle", !propsCollapsed && "is-on")}
          aria-expanded={!propsCollapsed}
          aria-controls={asideId}
          aria-label={propsCollapsed ? t("workItem.header.showProperties") : t("workItem.header.hideProperties")}
          title={propsCollapsed ? t("workItem.header.showProperties") : t("workItem.header.hideProperties")}
          onClick={() => setPropsCollapsed(!propsCollapsed)}
        >
          <PanelRight size={15} aria-hidden />
        </button>
      ) : null}
      {mode === "peek" ? (
        <Link
          className="wid-icon-btn"
          to={
            isArchived
              ? `/${slug}/projects/${projectId}/archives/issues/${workItemId}/`
              : item.is_epic
                ? epicPath(slug, projectId, workItemId)
                : browsePath(slug, key)
          }
          aria-label={t("workItem.header.openFullPage")}
          title={t("workItem.header.openFullPage")}
        >
          <Maximize2 size={14} aria-hidden />
        </Link>
      ) : null}
      <Menu
        trigger={
          <button type="button" className="wid-icon-btn" aria-label={t("workItem.header.more")}>
            <Ellipsis size={16} aria-hidden />
          </button>
        }
      >
        <MenuItem icon={<LinkIcon size={14} aria-hidden />} onSelect={() => void copyLink()}>
          {t("workItem.header.copyLink")}
        </MenuItem>
        {canEdit && !isArchived ? (
          <MenuItem icon={<Archive size={14} aria-hidden />} onSelect={() => setConfirm("archive")}>
            {t("workItem.header.archive")}
          </MenuItem>
        ) : null}
        {canEdit ? (
          <>
            <MenuSeparator />
            <MenuItem danger icon={<Trash2 size={14} aria-hidden />} onSelect={() => setConfirm("delete")}>
              {t("workItem.header.delete")}
            </MenuItem>
          </>
        ) : null}
      </Menu>
      {onClose ? (
        <button
          type="button"
          className="wid-icon-btn"
          aria-label={t("workItem.header.close")}
          title={t("workItem.header.close")}
          onClick={onClose}
        >
          <X size={16} aria-hidden />
        </button>
      ) : null}
    </div>
  );

  const main = (
    <>
      {isArchived ? <Banner kind="info">{t("workItem.archived.banner")}</Banner> : null}
      <ParentCrumb parentId={item.parent_id} identifier={identifier} slug={slug} />
      <TitleField item={item} />
      <DescriptionField key={workItemId} item={item} initialHtml={detail.descriptionHtml} />
      <ReactionBar
        reactions={detail.reactions}
        disabled={!canEdit}
        onToggle={(emoji) => void toggleWorkItemReaction(slug, projectId, workItemId, emoji)}
      />
      {mode === "peek" ? <Properties item={item} /> : null}
      {item.is_epic ? <EpicProgress epicId={workItemId} /> : null}
      <SubItems workItemId={workItemId} epic={item.is_epic} />
      <Relations workItemId={workItemId} />
      <Links workItemId={workItemId} />
      <Attachments workItemId={workItemId} />
      <Timeline workItemId={workItemId} />
    </>
  );

  return (
    <DetailContext.Provider value={ctx}>
      <div className={clsx("wid-detail", `wid-detail-${mode}`)}>
        {header}
        {mode === "page" ? (
          <div className={clsx("wid-page-body", propsCollapsed && "is-collapsed")}>
            <div className="wid-main">{main}</div>
            <aside id={asideId} className="wid-aside" hidden={propsCollapsed}>
              {propsCollapsed ? null : <Properties item={item} />}
            </aside>
          </div>
        ) : (
          <div className="wid-peek-body">{main}</div>
        )}
      </div>
      <ConfirmModal
        open={confirm === "delete"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("workItem.delete.title")}
        description={t("workItem.delete.description", { key })}
        confirmLabel={t("workItem.delete.confirm")}
        onConfirm={onDelete}
      />
      <ConfirmModal
        open={confirm === "archive"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("workItem.header.archive")}
        description={
          isClosedStateGroup(item.state__group)
            ? t("workItem.archive.description", { key })
            : t("workItem.archive.onlyClosed")
        }
        confirmLabel={t("workItem.header.archive")}
        danger={false}
        onConfirm={onArchive}
      />
    </DetailContext.Provider>
  );
}

function ParentCrumb({ parentId, identifier, slug }: { parentId: string | null; identifier: string; slug: string }) {
  const parent = useWorkItem(parentId);
  if (!parent) return null;
  const key = workItemKey(identifier, parent.sequence_id);
  return (
    <Link className="wid-parent-crumb" to={browsePath(slug, key)}>
      <span className="wid-key">{key}</span>
      <span>{parent.name}</span>
    </Link>
  );
}
