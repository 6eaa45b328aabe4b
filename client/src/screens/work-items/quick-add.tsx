/**
 * Quick add at the bottom of a group: "+ New work item" opens an inline field; Enter creates the
 * item with the group's value prefilled (cycles, modules and None groups prefill nothing) over the
 * board's scope (a cycle's board puts it in the cycle, a module's in the module) and keeps the field
 * open for the next one; Escape or leaving it empty closes it.
 */
import clsx from "clsx";
import { Plus } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { createWorkItem } from "../../stores/work-items";
import { withScopeDefaults } from "./board-scope";
import { useWorkItemsContext } from "./context";
import type { GroupPatch } from "./pipeline";

export function QuickAdd({ prefill, variant }: { prefill: GroupPatch; variant: "list" | "kanban" }) {
  const { t } = useTranslation();
  const { slug, projectId, identifier, canEdit, canAdd, scopeDefaults } = useWorkItemsContext();
  // The epics board adds epics (its scope defaults make them so).
  const epic = Boolean(scopeDefaults.is_epic);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  if (!canEdit || !canAdd) return null;

  const submit = () => {
    const value = name.trim();
    if (!value) return;
    setName("");
    // Optimistic: the item shows at once; a refusal removes it with a toast.
    const input = withScopeDefaults(scopeDefaults, { ...prefill, name: value });
    createWorkItem(slug, projectId, input, { optimistic: true }).catch(() => undefined);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    event.stopPropagation();
    if (event.key === "Enter") {
      event.preventDefault();
      submit();
    } else if (event.key === "Escape") {
      setName("");
      setOpen(false);
    }
  };

  if (!open) {
    return (
      <button type="button" className={clsx("quick-add-btn", `quick-add-${variant}`)} onClick={() => setOpen(true)}>
        <Plus size={14} aria-hidden />
        {t(epic ? "epics.quickAdd.button" : "workItems.quickAdd.button")}
      </button>
    );
  }
  return (
    <div className={clsx("quick-add-form", `quick-add-${variant}`)}>
      {variant === "list" ? <span className="quick-add-key">{identifier}</span> : null}
      <input
        className="quick-add-input"
        // Focus on open so typing starts at once.
        ref={(el) => el?.focus()}
        aria-label={t(epic ? "epics.quickAdd.label" : "workItems.quickAdd.label")}
        placeholder={t(epic ? "epics.quickAdd.placeholder" : "workItems.quickAdd.placeholder")}
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!name.trim()) setOpen(false);
        }}
      />
      <span className="quick-add-hint">{t("workItems.quickAdd.hint")}</span>
    </div>
  );
}
