import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Modal, ModalFooter, TextInput } from "../../../components/ui";
import { focusOnMount } from "./focus";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** When set, the person must type this text before the button unlocks (destructive actions). */
  typeToConfirm?: string;
  danger?: boolean;
  onConfirm: () => Promise<unknown> | unknown;
};

/** Are you sure? Enter confirms, Escape cancels; a busy state while the action runs. */
export function ConfirmModal({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  typeToConfirm,
  danger = true,
  onConfirm,
}: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) {
      setTyped("");
      setBusy(false);
    }
  }, [open]);
  const locked = typeToConfirm !== undefined && typed.trim() !== typeToConfirm.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (locked || busy) return;
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} description={description} width={460}>
      <form onSubmit={submit}>
        {typeToConfirm !== undefined ? (
          <TextInput
            label={t("workspace.confirm.typeToConfirm", { text: typeToConfirm })}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            ref={focusOnMount}
          />
        ) : null}
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("workspace.common.cancel")}
          </Button>
          <Button type="submit" variant={danger ? "danger" : "primary"} disabled={locked} loading={busy}>
            {confirmLabel}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
