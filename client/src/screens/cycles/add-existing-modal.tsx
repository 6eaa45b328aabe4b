/**
 * "Add existing work items" to a cycle (the shared AddItemsModal): items already in this cycle
 * are left out; items of another cycle say so (adding moves them, an item has one cycle).
 */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { AddItemsModal, addableItems as addable } from "../../components/progress/add-items-modal";
import { addIssuesToCycle, type Cycle, useProjectCycles } from "../../stores/cycles";
import type { WorkItem } from "../../stores/work-items";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  cycle: Cycle;
  identifier: string;
  stateColor: (stateId: string | null) => string | undefined;
};

/** Items that may be added to the cycle: live, saved, not already in it, matching the query. */
export function addableItems(items: readonly WorkItem[], cycleId: string, query: string, identifier: string) {
  return addable(items, (item) => item.cycle_id === cycleId, query, identifier);
}

export function AddExistingModal({ open, onOpenChange, slug, cycle, identifier, stateColor }: Props) {
  const { t } = useTranslation();
  const projectCycles = useProjectCycles(cycle.project_id);
  const isIn = useCallback((item: WorkItem) => item.cycle_id === cycle.id, [cycle.id]);
  const note = (item: WorkItem) => {
    const other = item.cycle_id ? projectCycles.find((c) => c.id === item.cycle_id)?.name : undefined;
    return other ? t("cycles.addExisting.inOther", { name: other }) : undefined;
  };
  async function submit(ids: string[]) {
    const ok = await addIssuesToCycle(slug, cycle.project_id, cycle.id, ids);
    if (ok) toast.success(t("cycles.addExisting.done", { count: ids.length, name: cycle.name }));
    return ok;
  }
  return (
    <AddItemsModal
      open={open}
      onOpenChange={onOpenChange}
      title={t("cycles.addExisting.title", { name: cycle.name })}
      projectId={cycle.project_id}
      identifier={identifier}
      isIn={isIn}
      note={note}
      stateColor={stateColor}
      noneText={t("cycles.addExisting.none")}
      submitLabel={(count) => t("cycles.addExisting.submit", { count })}
      submitTestId="add-existing-submit"
      onSubmit={submit}
    />
  );
}
