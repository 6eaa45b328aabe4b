/**
 * "Add existing work items" to a cycle: search the project's items (the local cache: every item
 * of the project is there, so the list answers as you type), tick several, add them in one call.
 * Items already in this cycle are left out; items of another cycle say so (they will move).
 */
import { Search } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button, EmptyState, Modal, ModalFooter, Spinner } from "../../components/ui";
import { addIssuesToCycle, type Cycle, useProjectCycles } from "../../stores/cycles";
import { useProjectWorkItems, type WorkItem } from "../../stores/work-items";
import { StateIcon } from "../work-item/state-icon";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  cycle: Cycle;
  identifier: string;
  stateColor: (stateId: string | null) => string | undefined;
};

const SHOWN = 60;

/** Items that may be added: live (not archived, not drafts), not already in the cycle, matching the query. */
export function addableItems(items: readonly WorkItem[], cycleId: string, query: string, identifier: string) {
  const q = query.trim().toLowerCase();
  return items.filter((item) => {
    if (item.archived_at || item.is_draft || item.cycle_id === cycleId || item.id.startsWith("temp-")) return false;
    if (!q) return true;
    return item.name.toLowerCase().includes(q) || `${identifier}-${item.sequence_id}`.toLowerCase().includes(q);
  });
}

export function AddExistingModal({ open, onOpenChange, slug, cycle, identifier, stateColor }: Props) {
  const { t } = useTranslation();
  const { items, status } = useProjectWorkItems(cycle.project_id);
  const projectCycles = useProjectCycles(cycle.project_id);
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setQuery("");
      setPicked(new Set());
      setBusy(false);
    }
  }, [open]);

  const matches = useMemo(
    () => addableItems(items, cycle.id, query, identifier).sort((a, b) => b.sequence_id - a.sequence_id),
    [items, cycle.id, query, identifier],
  );
  const cycleName = (id: string | null) => (id ? projectCycles.find((c) => c.id === id)?.name : undefined);

  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function submit() {
    if (!picked.size || busy) return;
    setBusy(true);
    const ok = await addIssuesToCycle(slug, cycle.project_id, cycle.id, [...picked]);
    setBusy(false);
    if (!ok) return;
    toast.success(t("cycles.addExisting.done", { count: picked.size, name: cycle.name }));
    onOpenChange(false);
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("cycles.addExisting.title", { name: cycle.name })}
      width={600}
    >
      <div className="search-input cy-add-search">
        <Search size={14} aria-hidden />
        <input
          className="input"
          type="search"
          placeholder={t("cycles.addExisting.search")}
          aria-label={t("cycles.addExisting.search")}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          // The modal's first field: typing starts the search at once.
          // biome-ignore lint/a11y/noAutofocus: a search dialog opens to type into
          autoFocus
        />
      </div>
      {status !== "ready" ? (
        <div className="cy-add-loading">
          <Spinner />
        </div>
      ) : matches.length === 0 ? (
        <EmptyState
          icon={Search}
          title={query.trim() ? t("cycles.addExisting.noMatch") : t("cycles.addExisting.none")}
        />
      ) : (
        <ul className="cy-add-list" aria-label={t("cycles.addExisting.results")}>
          {matches.slice(0, SHOWN).map((item) => {
            const other = cycleName(item.cycle_id);
            return (
              <li key={item.id}>
                <label className="cy-add-row">
                  <input type="checkbox" checked={picked.has(item.id)} onChange={() => toggle(item.id)} />
                  <StateIcon group={item.state__group} color={stateColor(item.state_id)} />
                  <span className="cy-add-key">
                    {identifier}-{item.sequence_id}
                  </span>
                  <span className="cy-add-name">{item.name}</span>
                  {other ? (
                    <span className="cy-add-other">{t("cycles.addExisting.inOther", { name: other })}</span>
                  ) : null}
                </label>
              </li>
            );
          })}
          {matches.length > SHOWN ? (
            <li className="cy-muted cy-add-more">{t("cycles.addExisting.more", { count: matches.length - SHOWN })}</li>
          ) : null}
        </ul>
      )}
      <ModalFooter>
        <span className="cy-muted cy-add-picked">{t("cycles.addExisting.picked", { count: picked.size })}</span>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t("cycles.cancel")}
        </Button>
        <Button onClick={() => void submit()} disabled={!picked.size} loading={busy} data-testid="add-existing-submit">
          {t("cycles.addExisting.submit", { count: picked.size })}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
