/**
 * The bulk bar, shown while work items are selected: set state, priority, assignees (added),
 * labels (added), cycle (or none) and modules (added) where the project has them; on a cycle's or
 * module's board, remove from that cycle or module; archive; delete (after a confirmation). All or nothing on the server; shown at
 * once and undone with a toast if refused.
 */
import { NONE_GROUP, PRIORITIES, type Priority } from "@tideline/shared";
import { Archive, Boxes, CircleDot, CircleMinus, Contrast, Tag, Trash2, UserRound, X } from "lucide-react";
import { type ComponentProps, memo, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Avatar, Button, Combobox } from "../../components/ui";
import { loadCycles, removeIssueFromCycle } from "../../stores/cycles";
import { loadModules, removeIssueFromModule } from "../../stores/modules";
import {
  type BulkProperties,
  bulkArchiveWorkItems,
  bulkDeleteWorkItems,
  bulkUpdateWorkItems,
  getWorkItem,
} from "../../stores/work-items";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { useSelection, useWorkItemsContext } from "./context";
import {
  cycleListNote,
  cycleOptions,
  moduleEmptyText,
  moduleOptions,
  useCycleList,
  useCycleModuleFeatures,
  useModuleList,
} from "./cycle-module-pickers";
import { LabelDot, PriorityIcon, stateOptions, useLabels } from "./properties";

/** A bulk picker: a ghost button named as its picker, centred over the bar. */
function BulkPicker({
  icon,
  ...props
}: Omit<ComponentProps<typeof Combobox>, "children" | "align"> & { icon: ReactNode }) {
  return (
    <Combobox {...props} align="center">
      <Button size="sm" variant="ghost">
        {icon}
        {props.label}
      </Button>
    </Combobox>
  );
}

/**
 * The picks of an "add" picker (assignees, labels, modules), sent when it closes so several
 * travel in one request.
 */
function usePicks() {
  const [picked, setPicked] = useState<string[]>([]);
  return {
    isSelected: (v: string) => picked.includes(v),
    toggle: (v: string) => setPicked((a) => (a.includes(v) ? a.filter((x) => x !== v) : [...a, v])),
    /** Hands the picks to `send` (if any) and starts over. */
    flush: (send: (values: string[]) => void) => {
      if (!picked.length) return;
      send(picked);
      setPicked([]);
    },
  };
}

// Memoised: the board re-renders on every filter change, which leaves this alone.
export const BulkBar = memo(function BulkBar() {
  const { t } = useTranslation();
  const { slug, projectId, lookups, isAdmin, userId, today, scope } = useWorkItemsContext();
  const selection = useSelection();
  const names = useLabels();
  const [confirming, setConfirming] = useState(false);
  const assignees = usePicks();
  const labels = usePicks();
  const modules = usePicks();
  const features = useCycleModuleFeatures(slug, projectId);
  const cycleList = useCycleList(slug, projectId, false);
  const moduleList = useModuleList(slug, projectId, false);
  const ids = [...selection.selected];
  if (!ids.length) return null;

  const apply = async (properties: BulkProperties) => {
    const ok = await bulkUpdateWorkItems(slug, projectId, ids, properties);
    if (ok) toast.success(t("workItems.bulk.updated", { count: ids.length }));
  };

  const closed = ids.every((id) => {
    const group = getWorkItem(id)?.state__group;
    return group === "completed" || group === "cancelled";
  });
  const canDelete = isAdmin || ids.every((id) => getWorkItem(id)?.created_by === userId);

  /**
   * A cycle's or module's board takes the selection out of its scope (the items stay in the
   * project). One call per item, as the stores keep the cache and the scope's counters in step;
   * a refused one is undone with its own toast.
   */
  const removeFromScope = async () => {
    // A saved view's board has no membership to take items out of.
    if (scope.kind === "project" || scope.kind === "view" || scope.kind === "epics") return;
    const results = await Promise.all(
      ids.map((id) =>
        scope.kind === "cycle"
          ? removeIssueFromCycle(slug, projectId, scope.cycleId, id)
          : removeIssueFromModule(slug, projectId, scope.moduleId, id),
      ),
    );
    const removed = results.filter(Boolean).length;
    if (removed === 0) return;
    toast.success(
      t(scope.kind === "cycle" ? "workItems.bulk.removedFromCycle" : "workItems.bulk.removedFromModule", {
        count: removed,
      }),
    );
    selection.clear();
  };

  return (
    <div className="wi-bulk" role="toolbar" aria-label={t("workItems.bulk.label")}>
      <span className="wi-bulk-count">{t("workItems.bulk.selected", { count: ids.length })}</span>
      <BulkPicker
        label={t("workItems.bulk.setState")}
        icon={<CircleDot size={14} aria-hidden />}
        options={stateOptions(lookups.states)}
        isSelected={() => false}
        onSelect={(state_id) => void apply({ state_id })}
      />
      <BulkPicker
        label={t("workItems.bulk.setPriority")}
        icon={<PriorityIcon priority="high" />}
        options={PRIORITIES.map((p) => ({ value: p, label: names.priority(p), icon: <PriorityIcon priority={p} /> }))}
        isSelected={() => false}
        onSelect={(p) => void apply({ priority: p as Priority })}
      />
      <BulkPicker
        label={t("workItems.bulk.addAssignees")}
        icon={<UserRound size={14} aria-hidden />}
        multiple
        options={lookups.members.map((m) => ({
          value: m.id,
          label: m.name,
          keywords: m.email,
          icon: <Avatar name={m.name} src={m.avatar} size={18} />,
        }))}
        isSelected={assignees.isSelected}
        onSelect={assignees.toggle}
        onOpenChange={(open) => {
          if (!open) assignees.flush((assignee_ids) => void apply({ assignee_ids }));
        }}
      />
      <BulkPicker
        label={t("workItems.bulk.addLabels")}
        icon={<Tag size={14} aria-hidden />}
        multiple
        options={lookups.labels.map((l) => ({ value: l.id, label: l.name, icon: <LabelDot color={l.color} /> }))}
        isSelected={labels.isSelected}
        onSelect={labels.toggle}
        onOpenChange={(open) => {
          if (!open) labels.flush((label_ids) => void apply({ label_ids }));
        }}
        emptyText={lookups.labels.length ? t("workItems.picker.noMatch") : t("workItems.picker.noLabels")}
      />
      {features.cycles ? (
        <BulkPicker
          label={t("cycleModuleProps.setCycle")}
          icon={<Contrast size={14} aria-hidden />}
          options={() => cycleOptions(t, cycleList.list, null, today)}
          isSelected={() => false}
          onSelect={(v) => void apply({ cycle_id: v === NONE_GROUP ? null : v })}
          onOpenChange={(open) => {
            if (open) loadCycles(slug, projectId).catch(() => undefined);
          }}
          searchPlaceholder={t("cycleModuleProps.searchCycles")}
          emptyText={t("cycleModuleProps.noMatch")}
          footer={cycleListNote(t, cycleList.list, cycleList.status)}
          popoverClassName="cm-pop"
        />
      ) : null}
      {features.modules ? (
        <BulkPicker
          label={t("cycleModuleProps.addToModules")}
          icon={<Boxes size={14} aria-hidden />}
          multiple
          options={() => moduleOptions(moduleList.list)}
          isSelected={modules.isSelected}
          onSelect={modules.toggle}
          onOpenChange={(open) => {
            if (open) loadModules(slug, projectId).catch(() => undefined);
            else modules.flush((module_ids) => void apply({ module_ids }));
          }}
          searchPlaceholder={t("cycleModuleProps.searchModules")}
          emptyText={moduleEmptyText(t, moduleList.list, moduleList.status)}
          popoverClassName="cm-pop"
        />
      ) : null}
      <span className="wi-bulk-sep" />
      {scope.kind === "cycle" || scope.kind === "module" ? (
        <Button size="sm" variant="ghost" onClick={() => void removeFromScope()}>
          <CircleMinus size={14} aria-hidden />
          {t(scope.kind === "cycle" ? "workItems.bulk.removeFromCycle" : "workItems.bulk.removeFromModule")}
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        disabled={!closed}
        title={closed ? undefined : t("workItems.bulk.archiveHint")}
        onClick={async () => {
          if (await bulkArchiveWorkItems(slug, projectId, ids)) {
            toast.success(t("workItems.bulk.archived", { count: ids.length }));
            selection.clear();
          }
        }}
      >
        <Archive size={14} aria-hidden />
        {t("workItems.bulk.archive")}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="wi-bulk-danger"
        disabled={!canDelete}
        title={canDelete ? undefined : t("workItems.bulk.deleteHint")}
        onClick={() => setConfirming(true)}
      >
        <Trash2 size={14} aria-hidden />
        {t("workItems.bulk.delete")}
      </Button>
      <button
        type="button"
        className="wi-icon-btn"
        aria-label={t("workItems.bulk.clear")}
        title={t("workItems.bulk.clear")}
        onClick={selection.clear}
      >
        <X size={14} aria-hidden />
      </button>
      <ConfirmModal
        open={confirming}
        onOpenChange={setConfirming}
        title={t("workItems.bulk.deleteTitle", { count: ids.length })}
        description={t("workItems.bulk.deleteDescription", { count: ids.length })}
        confirmLabel={t("workItems.bulk.deleteConfirm")}
        onConfirm={async () => {
          setConfirming(false);
          if (await bulkDeleteWorkItems(slug, projectId, ids)) {
            toast.success(t("workItems.bulk.deleted", { count: ids.length }));
            selection.clear();
          }
        }}
      />
    </div>
  );
});
