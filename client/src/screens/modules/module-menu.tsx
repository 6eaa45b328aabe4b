/**
 * A module's actions (list rows, board cards, the module screen's header): edit, favorite, copy
 * link, archive (only completed or cancelled — otherwise shown disabled with the reason) and
 * delete with a confirmation. Only what the caller may do is offered.
 */
import { Archive, Ellipsis, Link as LinkIcon, Pencil, Star, StarOff, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { archiveModule, deleteModule, type Module, setModuleFavorite } from "../../stores/modules";
import { session } from "../../stores/session";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import type { ModuleProjectContext } from "./module-bits";
import { moduleUrl } from "./module-bits";
import { canArchive } from "./module-logic";
import "../../components/ui/controls.css";

type Props = {
  ctx: ModuleProjectContext;
  module: Module;
  onEdit: () => void;
  onDeleted?: () => void;
  onArchived?: () => void;
  triggerClassName?: string;
  /** The star is shown next to the menu (list rows): leave it out of it. */
  hideFavorite?: boolean;
};

export function ModuleMenu({ ctx, module, onEdit, onDeleted, onArchived, triggerClassName, hideFavorite }: Props) {
  const { t } = useTranslation();
  const sessionSnap = useSnapshot(session);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const { slug } = ctx;
  const projectId = module.project_id;
  const canDelete = ctx.canEdit && (ctx.isAdmin || module.created_by === sessionSnap.user?.id);
  const archivable = canArchive(module);

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${moduleUrl(slug, projectId, module.id)}`);
      toast.success(t("modules.actions.linkCopied"));
    } catch {
      toast.error(t("modules.actions.copyFailed"));
    }
  }

  return (
    <>
      <Menu
        width={230}
        trigger={
          <button
            type="button"
            className={triggerClassName ?? "ui-icon-btn mo-icon-btn"}
            aria-label={t("modules.actions.menu", { name: module.name })}
            title={t("modules.actions.more")}
            onClick={(e) => e.stopPropagation()}
            onPointerDown={(e) => e.stopPropagation()}
          >
            <Ellipsis size={15} aria-hidden />
          </button>
        }
      >
        {ctx.canEdit ? (
          <MenuItem icon={<Pencil size={14} />} onSelect={onEdit}>
            {t("modules.actions.edit")}
          </MenuItem>
        ) : null}
        {hideFavorite ? null : (
          <MenuItem
            icon={module.is_favorite ? <StarOff size={14} /> : <Star size={14} />}
            onSelect={() => void setModuleFavorite(slug, projectId, module.id, !module.is_favorite)}
          >
            {module.is_favorite ? t("modules.actions.unfavorite") : t("modules.actions.favorite")}
          </MenuItem>
        )}
        <MenuItem icon={<LinkIcon size={14} />} onSelect={() => void copyLink()}>
          {t("modules.actions.copyLink")}
        </MenuItem>
        {ctx.canEdit ? (
          <>
            <MenuSeparator />
            <MenuItem
              icon={<Archive size={14} />}
              disabled={!archivable}
              onSelect={async () => {
                if (await archiveModule(slug, projectId, module.id)) {
                  toast.success(t("modules.actions.archived"));
                  onArchived?.();
                }
              }}
            >
              <span className="mo-menu-text">
                {t("modules.actions.archive")}
                {archivable ? null : <span className="mo-menu-hint">{t("modules.actions.archiveHint")}</span>}
              </span>
            </MenuItem>
          </>
        ) : null}
        {canDelete ? (
          <MenuItem danger icon={<Trash2 size={14} />} onSelect={() => setDeleteOpen(true)}>
            {t("modules.actions.delete")}
          </MenuItem>
        ) : null}
      </Menu>
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("modules.delete.title")}
        description={t("modules.delete.description", { name: module.name })}
        confirmLabel={t("modules.delete.confirm")}
        onConfirm={async () => {
          const ok = await deleteModule(slug, projectId, module.id);
          setDeleteOpen(false);
          if (ok) {
            toast.success(t("modules.actions.deleted"));
            onDeleted?.();
          }
        }}
      />
    </>
  );
}
