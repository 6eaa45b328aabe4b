/**
 * Transfer a completed cycle's unfinished work items (backlog, unstarted, started) to a cycle
 * that is not completed: a searchable list of the project's current, upcoming and draft cycles.
 */
import clsx from "clsx";
import { ArrowRightLeft, Search } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState, Modal, ModalFooter } from "../../components/ui";
import { type Cycle, cycles, transferIssues } from "../../stores/cycles";
import { transferTargets } from "./cycle-logic";
import { CycleDates, StatusBadge } from "./cycle-parts";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  cycle: Cycle;
  /** How many unfinished items will move (from the counters on screen). */
  unfinished: number;
};

export function TransferModal({ open, onOpenChange, slug, cycle, unfinished }: Props) {
  const { t } = useTranslation();
  const snap = useSnapshot(cycles);
  const [search, setSearch] = useState("");
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = (snap.byProject[cycle.project_id]?.list ?? []) as readonly Cycle[];
  const targets = useMemo(() => transferTargets(list, cycle.id, search), [list, cycle.id, search]);

  useEffect(() => {
    if (open) {
      setSearch("");
      setTarget(null);
      setBusy(false);
    }
  }, [open]);

  async function submit() {
    if (!target || busy) return;
    setBusy(true);
    const moved = await transferIssues(slug, cycle.project_id, cycle.id, target);
    setBusy(false);
    if (moved === null) return;
    const to = list.find((c) => c.id === target)?.name ?? "";
    toast.success(t("cycles.transfer.done", { count: moved, name: to }));
    onOpenChange(false);
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("cycles.transfer.title")}
      description={t("cycles.transfer.description", { count: unfinished, name: cycle.name })}
      width={520}
    >
      <div className="search-input cy-transfer-search">
        <Search size={14} aria-hidden />
        <input
          className="input"
          type="search"
          placeholder={t("cycles.transfer.search")}
          aria-label={t("cycles.transfer.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {targets.length === 0 ? (
        <EmptyState
          icon={ArrowRightLeft}
          title={search.trim() ? t("cycles.transfer.noMatch") : t("cycles.transfer.noTargets")}
          description={search.trim() ? undefined : t("cycles.transfer.noTargetsHint")}
        />
      ) : (
        <div className="cy-transfer-list" role="radiogroup" aria-label={t("cycles.transfer.target")}>
          {targets.map((c) => (
            <label key={c.id} className={clsx("cy-transfer-row", target === c.id && "is-on")}>
              <input
                type="radio"
                name="transfer-target"
                value={c.id}
                checked={target === c.id}
                onChange={() => setTarget(c.id)}
              />
              <span className="cy-transfer-name">{c.name}</span>
              <CycleDates cycle={c} />
              <StatusBadge status={c.status} />
            </label>
          ))}
        </div>
      )}
      <ModalFooter>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t("cycles.cancel")}
        </Button>
        <Button onClick={() => void submit()} disabled={!target} loading={busy} data-testid="transfer-submit">
          <ArrowRightLeft size={14} aria-hidden />
          {t("cycles.transfer.submit", { count: unfinished })}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
