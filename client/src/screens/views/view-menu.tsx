/**
 * A saved view's actions (list rows, the view board's header): edit, lock / unlock, make private
 * / public, favorite, copy link, archive (with undo) and delete with a confirmation. Only what
 * the caller may do is offered: changes belong to the view's owner and the project's admins.
 * Publishing is left out until public spaces exist (the page it would link to isn't there yet).
 */
import {
  Archive,
  Ellipsis,
  Globe2,
  Link as LinkIcon,
  Lock,
  LockOpen,
  Pencil,
  Star,
  StarOff,
  Trash2,
} from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { session } from "../../stores/session";
import {
  archiveView,
  deleteView,
  restoreView,
  type SavedView,
  setViewAccess,
  setViewFavorite,
  setViewLocked,
  viewDisplayName,
} from "../../stores/views";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import { viewUrl } from "./view-urls";
import "../../components/ui/controls.css";

/** What the caller may do with a view. */
export type ViewRights = { canEdit: boolean; isAdmin: boolean };

/** Changing a view (fields, lock, access, archive, delete) is its owner's or a project admin's. */
export function canManageView(rights: ViewRights, view: Pick<SavedView, "owned_by">, userId: string | undefined) {
  return rights.canEdit && (rights.isAdmin || view.owned_by === userId);
}

type Props = {
  slug: string;
  rights: ViewRights;
  view: SavedView;
  onEdit: () => void;
  onGone?: () => void;
  /** The star is shown next to the menu (list rows): leave it out of it. */
  hideFavorite?: boolean;
};

export function ViewMenu({ slug, rights, view, onEdit, onGone, hideFavorite }: Props) {
  const { t } = useTranslation();
  const sessionSnap = useSnapshot(session);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const projectId = view.project_id ?? "";
  const manage = canManageView(rights, view, sessionSnap.user?.id);
  const name = viewDisplayName(view.name, t("views.untitled"));

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${viewUrl(slug, projectId, view.id)}`);
      toast.success(t("views.actions.linkCopied"));
    } catch {
      toast.error(t("views.actions.copyFailed"));
    }
  }

  async function archive() {
    if (!(await archiveView(slug, projectId, view.id))) return;
    onGone?.();
    toast.success(t("views.actions.archived", { name }), {
      action: { label: t("views.actions.undo"), onClick: () => void restoreView(slug, projectId, view.id) },
    });
  }

  return (
    <>
      <Menu
        width={230}
        trigger={
          <button
            type="button"
            className="ui-icon-btn vw-icon-btn"
            aria-label={t("views.actions.menu", { name })}
            title={t("views.actions.more")}
            onClick={(e) => {
              e.stopPropagation();
              e.preventDefault();
            }}
            onPointerDown={(e) => e.stopPropagation()}
          >
            <Ellipsis size={15} aria-hidden />
          </button>
        }
      >
        {manage ? (
          <MenuItem icon={<Pencil size={14} />} onSelect={onEdit} disabled={view.is_locked}>
            <span className="vw-menu-text">
              {t("views.actions.edit")}
              {view.is_locked ? <span className="vw-menu-hint">{t("views.locked.editReason")}</span> : null}
            </span>
          </MenuItem>
        ) : null}
        {rights.canEdit && !hideFavorite ? (
          <MenuItem
            icon={view.is_favorite ? <StarOff size={14} /> : <Star size={14} />}
            onSelect={() => void setViewFavorite(slug, projectId, view.id, !view.is_favorite)}
          >
            {view.is_favorite ? t("views.actions.unfavorite") : t("views.actions.favorite")}
          </MenuItem>
        ) : null}
        <MenuItem icon={<LinkIcon size={14} />} onSelect={() => void copyLink()}>
          {t("views.actions.copyLink")}
        </MenuItem>
        {manage ? (
          <>
            <MenuSeparator />
            <MenuItem
              icon={view.is_locked ? <LockOpen size={14} /> : <Lock size={14} />}
              onSelect={async () => {
                if (await setViewLocked(slug, projectId, view.id, !view.is_locked))
                  toast.success(view.is_locked ? t("views.actions.unlocked") : t("views.actions.locked"));
              }}
            >
              {view.is_locked ? t("views.actions.unlock") : t("views.actions.lock")}
            </MenuItem>
            <MenuItem
              icon={view.access === 1 ? <Lock size={14} /> : <Globe2 size={14} />}
              onSelect={async () => {
                const next = view.access === 1 ? 0 : 1;
                if (await setViewAccess(slug, projectId, view.id, next))
                  toast.success(next === 0 ? t("views.actions.madePrivate") : t("views.actions.madePublic"));
              }}
            >
              {view.access === 1 ? t("views.actions.makePrivate") : t("views.actions.makePublic")}
            </MenuItem>
            <MenuSeparator />
            <MenuItem icon={<Archive size={14} />} onSelect={() => void archive()}>
              {t("views.actions.archive")}
            </MenuItem>
            <MenuItem danger icon={<Trash2 size={14} />} onSelect={() => setDeleteOpen(true)}>
              {t("views.actions.delete")}
            </MenuItem>
          </>
        ) : null}
      </Menu>
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("views.delete.title")}
        description={t("views.delete.description", { name })}
        confirmLabel={t("views.delete.confirm")}
        onConfirm={async () => {
          const ok = await deleteView(slug, projectId, view.id);
          setDeleteOpen(false);
          if (ok) {
            toast.success(t("views.actions.deleted"));
            onGone?.();
          }
        }}
      />
    </>
  );
}
