/**
 * A page's actions menu (the list's rows and the page's header): favorite, copy link, access,
 * lock, duplicate, move, archive or restore, delete — each offered only when the caller may do
 * it (page-logic.ts). The delete confirmation and the move dialog live here too.
 */
import { PAGE_ACCESS } from "@tideline/shared";
import {
  Archive,
  ArchiveRestore,
  Copy,
  Ellipsis,
  FolderInput,
  Globe,
  History,
  Link as LinkIcon,
  Lock,
  LockOpen,
  Star,
  StarOff,
  Trash2,
} from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, Modal, ModalFooter } from "../../components/ui";
import {
  archivePage,
  deletePage,
  duplicatePage,
  movePage,
  type Page,
  restorePage,
  setPageAccess,
  setPageFavorite,
  setPageLocked,
} from "../../stores/pages";
import { projects } from "../../stores/projects";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import { SelectField } from "../workspace/components/select-field";
import { moveTargets, type PagePermissions, pageTitle } from "./page-logic";
import { pageUrl } from "./use-pages";
import "../../components/ui/controls.css";

/** Actions shown as buttons next to the menu (the page header) are left out of it. */
export type PageMenuAction = "favorite" | "access" | "lock" | "archive" | "versions";

type Props = {
  slug: string;
  projectId: string;
  page: Page;
  perms: PagePermissions;
  /** Label of the trigger, for screen readers. */
  label: string;
  hide?: readonly PageMenuAction[];
  onVersions?: () => void;
  /** After the page was deleted (the page screen goes back to the list). */
  onDeleted?: () => void;
  /** After the page was moved (the page screen follows it). */
  onMoved?: (projectId: string) => void;
  triggerClassName?: string;
};

export function PageMenu({
  slug,
  projectId,
  page,
  perms,
  label,
  hide = [],
  onVersions,
  onDeleted,
  onMoved,
  triggerClassName = "ui-icon-btn pg-icon-btn",
}: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [moveOpen, setMoveOpen] = useState(false);
  const shown = (action: PageMenuAction) => !hide.includes(action);
  const name = pageTitle(page.name);
  const isPrivate = page.access === PAGE_ACCESS.private;
  const archived = Boolean(page.archived_at);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(pageUrl(slug, projectId, page.id));
      toast.success(t("pages.actions.linkCopied"));
    } catch {
      toast.error(t("pages.actions.copyFailed"));
    }
  }

  async function duplicate() {
    const copy = await duplicatePage(slug, projectId, page.id);
    if (copy) {
      toast.success(t("pages.actions.duplicated"), {
        action: {
          label: t("pages.actions.open"),
          onClick: () => navigate(`/${slug}/projects/${projectId}/pages/${copy.id}/`),
        },
      });
    }
  }

  const favoriteItem =
    shown("favorite") && (page.is_favorite || perms.canFavorite) ? (
      <MenuItem
        icon={page.is_favorite ? <StarOff size={14} /> : <Star size={14} />}
        onSelect={() => void setPageFavorite(slug, projectId, page.id, !page.is_favorite)}
      >
        {page.is_favorite ? t("pages.actions.unfavorite") : t("pages.actions.favorite")}
      </MenuItem>
    ) : null;
  const manageItems = [
    shown("access") && perms.canChangeAccess ? (
      <MenuItem
        key="access"
        icon={isPrivate ? <Globe size={14} /> : <Lock size={14} />}
        onSelect={async () => {
          const next = isPrivate ? PAGE_ACCESS.public : PAGE_ACCESS.private;
          if (await setPageAccess(slug, projectId, page.id, next))
            toast.success(isPrivate ? t("pages.actions.madePublic") : t("pages.actions.madePrivate"));
        }}
      >
        {isPrivate ? t("pages.actions.makePublic") : t("pages.actions.makePrivate")}
      </MenuItem>
    ) : null,
    shown("lock") && perms.canLock ? (
      <MenuItem
        key="lock"
        icon={page.is_locked ? <LockOpen size={14} /> : <Lock size={14} />}
        onSelect={async () => {
          if (await setPageLocked(slug, projectId, page.id, !page.is_locked))
            toast.success(page.is_locked ? t("pages.actions.unlocked") : t("pages.actions.locked"));
        }}
      >
        {page.is_locked ? t("pages.actions.unlock") : t("pages.actions.lock")}
      </MenuItem>
    ) : null,
    perms.canDuplicate ? (
      <MenuItem key="duplicate" icon={<Copy size={14} />} onSelect={() => void duplicate()}>
        {t("pages.actions.duplicate")}
      </MenuItem>
    ) : null,
    perms.canMove ? (
      <MenuItem key="move" icon={<FolderInput size={14} />} onSelect={() => setMoveOpen(true)}>
        {t("pages.actions.move")}
      </MenuItem>
    ) : null,
    shown("versions") && onVersions ? (
      <MenuItem key="versions" icon={<History size={14} />} onSelect={onVersions}>
        {t("pages.actions.versions")}
      </MenuItem>
    ) : null,
  ].filter(Boolean);
  const endItems = [
    shown("archive") && perms.canArchive ? (
      <MenuItem
        key="archive"
        icon={<Archive size={14} />}
        onSelect={async () => {
          if (await archivePage(slug, projectId, page.id)) toast.success(t("pages.actions.archived"));
        }}
      >
        {t("pages.actions.archive")}
      </MenuItem>
    ) : null,
    shown("archive") && perms.canRestore ? (
      <MenuItem
        key="restore"
        icon={<ArchiveRestore size={14} />}
        onSelect={async () => {
          if (await restorePage(slug, projectId, page.id)) toast.success(t("pages.actions.restored"));
        }}
      >
        {t("pages.actions.restore")}
      </MenuItem>
    ) : null,
    perms.canDelete && archived ? (
      <MenuItem key="delete" danger icon={<Trash2 size={14} />} onSelect={() => setDeleteOpen(true)}>
        {t("pages.actions.delete")}
      </MenuItem>
    ) : null,
  ].filter(Boolean);

  return (
    <>
      <Menu
        width={220}
        trigger={
          <button type="button" className={triggerClassName} aria-label={label} title={t("pages.actions.more")}>
            <Ellipsis size={15} aria-hidden />
          </button>
        }
      >
        {favoriteItem}
        <MenuItem icon={<LinkIcon size={14} />} onSelect={() => void copyLink()}>
          {t("pages.actions.copyLink")}
        </MenuItem>
        {manageItems.length ? <MenuSeparator /> : null}
        {manageItems}
        {endItems.length ? <MenuSeparator /> : null}
        {endItems}
      </Menu>
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("pages.delete.title")}
        description={t("pages.delete.description", { name })}
        confirmLabel={t("pages.delete.confirm")}
        onConfirm={async () => {
          const ok = await deletePage(slug, projectId, page.id);
          setDeleteOpen(false);
          if (ok) {
            toast.success(t("pages.actions.deleted"));
            onDeleted?.();
          }
        }}
      />
      {moveOpen ? (
        <MovePageModal
          slug={slug}
          projectId={projectId}
          page={page}
          isOwner={perms.isOwner}
          onOpenChange={setMoveOpen}
          onMoved={onMoved}
        />
      ) : null}
    </>
  );
}

function MovePageModal({
  slug,
  projectId,
  page,
  isOwner,
  onOpenChange,
  onMoved,
}: {
  slug: string;
  projectId: string;
  page: Page;
  isOwner: boolean;
  onOpenChange: (open: boolean) => void;
  onMoved?: (projectId: string) => void;
}) {
  const { t } = useTranslation();
  const projectsSnap = useSnapshot(projects);
  const list = projectsSnap.bySlug[slug];
  const targets = useMemo(() => moveTargets(list ?? [], projectId, page, isOwner), [list, projectId, page, isOwner]);
  const [target, setTarget] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!target && targets.length === 1 && targets[0]) setTarget(targets[0].id);
  }, [target, targets]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!target || busy) return;
    setBusy(true);
    const moved = await movePage(slug, projectId, page.id, target);
    setBusy(false);
    if (!moved) return;
    const name = targets.find((p) => p.id === target)?.name ?? "";
    toast.success(t("pages.move.moved", { project: name }));
    onOpenChange(false);
    onMoved?.(target);
  }

  return (
    <Modal
      open
      onOpenChange={onOpenChange}
      title={t("pages.move.title")}
      description={t("pages.move.description", { name: pageTitle(page.name) })}
      width={460}
    >
      <form onSubmit={submit}>
        {targets.length === 0 ? (
          <p className="muted">{t("pages.move.none")}</p>
        ) : (
          <SelectField
            label={t("pages.move.project")}
            placeholder={t("pages.move.placeholder")}
            value={target}
            onValueChange={setTarget}
            options={targets.map((p) => ({ value: p.id, label: p.name }))}
          />
        )}
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("pages.move.cancel")}
          </Button>
          <Button type="submit" disabled={!target} loading={busy}>
            {t("pages.move.submit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
