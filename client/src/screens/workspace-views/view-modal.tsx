/**
 * Create a workspace view from the board's current settings (filters, layout, grouping, order,
 * properties), or rename one. An empty name is
 * allowed (the server stores "", and the product shows "Untitled", product-domain §6).
 */
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Modal, ModalFooter, TextArea, TextInput } from "../../components/ui";
import { createWorkspaceView, updateWorkspaceView, type WorkspaceView } from "../../stores/workspace-views";
import type { ViewSettings } from "../views/view-logic";
import { settingsBody } from "../views/view-logic";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  /** Editing this view; creating when absent. */
  view?: WorkspaceView;
  /** What a new view saves. */
  settings: ViewSettings;
  onCreated?: (view: WorkspaceView) => void;
};

export function ViewModal({ open, onOpenChange, slug, view, settings, onCreated }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(view?.name ?? "");
    setDescription(view?.description ?? "");
    setPrivate(view ? view.access === 0 : false);
    setBusy(false);
  }, [open, view]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    if (view) {
      const ok = await updateWorkspaceView(slug, view.id, { name: name.trim(), description: description.trim() });
      setBusy(false);
      if (ok) onOpenChange(false);
      return;
    }
    const created = await createWorkspaceView(slug, {
      name: name.trim(),
      description: description.trim(),
      ...settingsBody(settings),
      access: isPrivate ? 0 : 1,
    });
    setBusy(false);
    if (created) {
      onOpenChange(false);
      onCreated?.(created);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={view ? t("workspaceViews.modal.editTitle") : t("workspaceViews.modal.createTitle")}
      description={view ? undefined : t("workspaceViews.modal.createHint")}
      width={480}
    >
      <form className="stack" onSubmit={submit}>
        <TextInput
          label={t("workspaceViews.modal.name")}
          placeholder={t("workspaceViews.untitled")}
          value={name}
          maxLength={255}
          autoFocus
          onChange={(e) => setName(e.target.value)}
        />
        <TextArea
          label={t("workspaceViews.modal.description")}
          value={description}
          maxLength={10000}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
        />
        {view ? null : (
          <label className="wsv-check">
            <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
            <span>
              {t("workspaceViews.modal.private")}
              <small className="muted">{t("workspaceViews.modal.privateHint")}</small>
            </span>
          </label>
        )}
        <ModalFooter>
          <Button variant="secondary" type="button" onClick={() => onOpenChange(false)}>
            {t("workspaceViews.modal.cancel")}
          </Button>
          <Button type="submit" disabled={busy}>
            {view ? t("workspaceViews.modal.save") : t("workspaceViews.modal.create")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
