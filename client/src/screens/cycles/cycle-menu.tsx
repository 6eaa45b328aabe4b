/**
 * A cycle's "…" menu: edit, copy link, archive (completed cycles only; otherwise shown disabled
 * with the reason), transfer unfinished work items (completed with some left), delete (with a
 * confirmation). It owns the modals those open.
 */
import { Archive, ArrowRightLeft, Link2, MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { archiveCycle, type Cycle, deleteCycle } from "../../stores/cycles";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import type { CycleActions } from "./cycle-logic";
import { CycleModal } from "./cycle-modal";
import { TransferModal } from "./transfer-modal";

export function cycleUrl(slug: string, projectId: string, cycleId: string): string {
  return `${window.location.origin}/${slug}/projects/${projectId}/cycles/${cycleId}/`;
}

type Props = {
  slug: string;
  cycle: Cycle;
  actions: CycleActions;
  unfinished: number;
  /** After a delete or archive, leave the cycle's own screen. */
  leaveTo?: string;
};

export function CycleMenu({ slug, cycle, actions, unfinished, leaveTo }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editOpen, setEditOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [archiveOpen, setArchiveOpen] = useState(false);
  const projectId = cycle.project_id;
  return (
    <>
      <Menu
        width={240}
        trigger={
          <button
            type="button"
            className="cy-icon-btn"
            aria-label={t("cycles.menu.label", { name: cycle.name })}
            title={t("cycles.menu.short")}
          >
            <MoreHorizontal size={16} aria-hidden />
          </button>
        }
      >
        {actions.edit ? (
          <MenuItem icon={<Pencil size={14} />} onSelect={() => setEditOpen(true)}>
            {t("cycles.menu.edit")}
          </MenuItem>
        ) : null}
        <MenuItem
          icon={<Link2 size={14} />}
          onSelect={() => {
            void navigator.clipboard
              .writeText(cycleUrl(slug, projectId, cycle.id))
              .then(() => toast.success(t("cycles.menu.linkCopied")))
              .catch(() => toast.error(t("cycles.menu.linkFailed")));
          }}
        >
          {t("cycles.menu.copyLink")}
        </MenuItem>
        {actions.transfer ? (
          <MenuItem icon={<ArrowRightLeft size={14} />} onSelect={() => setTransferOpen(true)}>
            {t("cycles.menu.transfer", { count: unfinished })}
          </MenuItem>
        ) : null}
        {actions.archive || actions.archiveReason ? (
          <MenuItem icon={<Archive size={14} />} disabled={!actions.archive} onSelect={() => setArchiveOpen(true)}>
            <span className="cy-menu-text">
              {t("cycles.menu.archive")}
              {actions.archiveReason ? <small>{t("cycles.menu.archiveOnlyCompleted")}</small> : null}
            </span>
          </MenuItem>
        ) : null}
        {actions.delete ? (
          <>
            <MenuSeparator />
            <MenuItem danger icon={<Trash2 size={14} />} onSelect={() => setDeleteOpen(true)}>
              {t("cycles.menu.delete")}
            </MenuItem>
          </>
        ) : null}
      </Menu>
      {actions.edit ? (
        <CycleModal open={editOpen} onOpenChange={setEditOpen} slug={slug} projectId={projectId} cycle={cycle} />
      ) : null}
      {actions.transfer ? (
        <TransferModal
          open={transferOpen}
          onOpenChange={setTransferOpen}
          slug={slug}
          cycle={cycle}
          unfinished={unfinished}
        />
      ) : null}
      <ConfirmModal
        open={archiveOpen}
        onOpenChange={setArchiveOpen}
        title={t("cycles.archiveConfirm.title", { name: cycle.name })}
        description={t("cycles.archiveConfirm.description")}
        confirmLabel={t("cycles.menu.archive")}
        danger={false}
        onConfirm={async () => {
          if (await archiveCycle(slug, projectId, cycle.id)) {
            setArchiveOpen(false);
            toast.success(t("cycles.archiveConfirm.done", { name: cycle.name }));
            if (leaveTo) navigate(leaveTo);
          }
        }}
      />
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("cycles.deleteConfirm.title", { name: cycle.name })}
        description={t("cycles.deleteConfirm.description")}
        confirmLabel={t("cycles.menu.delete")}
        onConfirm={async () => {
          if (leaveTo) navigate(leaveTo);
          if (await deleteCycle(slug, projectId, cycle.id)) {
            setDeleteOpen(false);
            toast.success(t("cycles.deleteConfirm.done", { name: cycle.name }));
          }
        }}
      />
    </>
  );
}
