/**
 * "Add existing work items": search the project's items in the local cache (by name or key),
 * tick several and add them to the module in one call. Items already in it are not offered.
 */
import { Search } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Modal, ModalFooter } from "../../components/ui";
import { addIssuesToModule } from "../../stores/modules";
import { useProjectWorkItems } from "../../stores/work-items";
import { focusOnMount } from "../workspace/components/focus";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  projectIdentifier: string;
  moduleId: string;
};

const SHOWN = 100;

export function AddExistingModal({ open, onOpenChange, slug, projectId, projectIdentifier, moduleId }: Props) {
  const { t } = useTranslation();
  const { items, status } = useProjectWorkItems(projectId);
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setQuery("");
      setPicked(new Set());
      setBusy(false);
    }
  }, [open]);

  const candidates = useMemo(() => {
    const q = query.trim().toLowerCase();
    return items
      .filter((i) => !i.archived_at && !i.is_draft && !i.module_ids.includes(moduleId))
      .filter((i) => {
        if (!q) return true;
        const key = `${projectIdentifier}-${i.sequence_id}`.toLowerCase();
        return i.name.toLowerCase().includes(q) || key.includes(q) || String(i.sequence_id) === q;
      })
      .sort((a, b) => b.sequence_id - a.sequence_id);
  }, [items, query, moduleId, projectIdentifier]);

  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!picked.size || busy) return;
    setBusy(true);
    const ok = await addIssuesToModule(slug, projectId, moduleId, [...picked]);
    setBusy(false);
    if (ok) onOpenChange(false);
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("modules.addExisting.title")} width={560}>
      <form onSubmit={submit}>
        <div className="search-input mo-add-search">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("modules.addExisting.search")}
            aria-label={t("modules.addExisting.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            ref={focusOnMount}
          />
        </div>
        <fieldset className="mo-add-list">
          <legend className="visually-hidden">{t("modules.addExisting.title")}</legend>
          {status !== "ready" && items.length === 0 ? (
            <p className="muted mo-panel-note">{t("modules.addExisting.loading")}</p>
          ) : candidates.length === 0 ? (
            <p className="muted mo-panel-note">{t("modules.addExisting.none")}</p>
          ) : (
            candidates.slice(0, SHOWN).map((item) => (
              <label key={item.id} className="mo-add-row">
                <input type="checkbox" checked={picked.has(item.id)} onChange={() => toggle(item.id)} />
                <span className="mo-add-key">
                  {projectIdentifier}-{item.sequence_id}
                </span>
                <span className="mo-add-name">{item.name}</span>
              </label>
            ))
          )}
          {candidates.length > SHOWN ? (
            <p className="muted mo-panel-note">{t("modules.addExisting.more", { count: candidates.length - SHOWN })}</p>
          ) : null}
        </fieldset>
        <ModalFooter>
          <span className="mo-add-count muted">{t("modules.addExisting.picked", { count: picked.size })}</span>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("modules.form.cancel")}
          </Button>
          <Button type="submit" disabled={!picked.size} loading={busy}>
            {t("modules.addExisting.submit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
