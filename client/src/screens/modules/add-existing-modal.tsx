/**
 * "Add existing work items" to a module (the shared AddItemsModal): items already in it are not
 * offered; an item may sit in several modules, so nothing else is noted.
 */
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { AddItemsModal } from "../../components/progress/add-items-modal";
import { addIssuesToModule } from "../../stores/modules";
import { projectMeta } from "../../stores/project-meta";
import type { WorkItem } from "../../stores/work-items";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  projectIdentifier: string;
  moduleId: string;
};

export function AddExistingModal({ open, onOpenChange, slug, projectId, projectIdentifier, moduleId }: Props) {
  const { t } = useTranslation();
  const metaSnap = useSnapshot(projectMeta);
  const states = metaSnap.byProject[projectId]?.states ?? [];
  const isIn = useCallback((item: WorkItem) => item.module_ids.includes(moduleId), [moduleId]);
  return (
    <AddItemsModal
      open={open}
      onOpenChange={onOpenChange}
      title={t("modules.addExisting.title")}
      projectId={projectId}
      identifier={projectIdentifier}
      isIn={isIn}
      stateColor={(id) => states.find((s) => s.id === id)?.color}
      noneText={t("modules.addExisting.none")}
      submitLabel={() => t("modules.addExisting.submit")}
      onSubmit={(ids) => addIssuesToModule(slug, projectId, moduleId, ids)}
    />
  );
}
