/**
 * Sub-items: the children with their state and a progress bar over the state groups; add an
 * existing item (search-issues/?sub_issue=true), create a new one inline, or remove one
 * (clears its parent).
 */
import { STATE_GROUPS } from "@tideline/shared";
import { Plus, X } from "lucide-react";
import { Popover } from "radix-ui";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "../../components/ui";
import { addSubIssues, createSubIssue, removeSubIssue, syncSubIssue } from "../../stores/work-item-detail";
import { useWorkItem, type WorkItem } from "../../stores/work-items";
import { countersFromDistribution, epicCompletion } from "../epics/epic-logic";
import { Menu, MenuItem } from "../workspace/components/menu";
import { subItemProgress, workItemKey } from "./format";
import { ItemSearch } from "./item-search";
import { StateIcon } from "./state-icon";
import { browsePath, useDetail, useDetailContext, useProjectMeta } from "./use-detail";
import { Widget } from "./widget";

type ChildWord =
  | "title"
  | "add"
  | "addExisting"
  | "createNew"
  | "newLabel"
  | "newPlaceholder"
  | "remove"
  | "removeNamed"
  | "empty"
  | "progress"
  | "searchLabel";

/** The key of a text of the children list: an epic's children are its work items, not sub-items. */
function childKey(epic: boolean, word: ChildWord): string {
  return `${epic ? "epics.children" : "workItem.subItems"}.${word}`;
}

/** `epic`: the item is an epic, whose children read as its work items rather than sub-items. */
export function SubItems({ workItemId, epic = false }: { workItemId: string; epic?: boolean }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const [mode, setMode] = useState<"idle" | "create" | "search">("idle");
  const subIssues = detail?.subIssues ?? [];
  const distribution = detail?.distribution ?? {};
  const progress = subItemProgress(distribution, STATE_GROUPS);
  // An epic counts done over its children that are not cancelled, as its progress card above does.
  const { done, total } = epic ? epicCompletion(countersFromDistribution(distribution)) : progress;
  const progressText = t(childKey(epic, "progress"), { done, total, count: total });

  const addButton = ctx.canEdit ? (
    <Popover.Root open={mode === "search"} onOpenChange={(open) => setMode(open ? "search" : "idle")}>
      <Menu
        trigger={
          <Button variant="ghost" size="sm">
            <Plus size={14} aria-hidden />
            {t(childKey(epic, "add"))}
          </Button>
        }
      >
        <MenuItem onSelect={() => setMode("create")}>{t(childKey(epic, "createNew"))}</MenuItem>
        <MenuItem onSelect={() => setTimeout(() => setMode("search"), 0)}>{t(childKey(epic, "addExisting"))}</MenuItem>
      </Menu>
      <Popover.Anchor className="wid-anchor" />
      <Popover.Portal>
        <Popover.Content className="picker-pop wid-picker" sideOffset={4} align="end">
          <ItemSearch
            slug={ctx.slug}
            projectId={ctx.projectId}
            workItemId={workItemId}
            mode="sub_issue"
            label={t(childKey(epic, "searchLabel"))}
            onPick={(picked) => {
              setMode("idle");
              void addSubIssues(ctx.slug, ctx.projectId, workItemId, [picked]);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  ) : null;

  return (
    <Widget
      title={t(childKey(epic, "title"))}
      count={subIssues.length}
      actions={addButton}
      extra={
        progress.total ? (
          <div className={epic ? "wid-progress ep-children-progress" : "wid-progress"} title={progressText}>
            {/* An epic's page draws the bar in its progress card just above: the count is enough here. */}
            {epic ? null : (
              <div
                className="wid-progress-bar"
                role="progressbar"
                aria-label={progressText}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress.percent}
              >
                {progress.segments.map((s) =>
                  s.count ? (
                    <span
                      key={s.group}
                      className={`wid-progress-seg wid-seg-${s.group}`}
                      style={{ width: `${(s.count / progress.total) * 100}%` }}
                    />
                  ) : null,
                )}
              </div>
            )}
            <span className="subtle">{progressText}</span>
          </div>
        ) : null
      }
    >
      {subIssues.length === 0 && mode !== "create" ? <p className="wid-empty">{t(childKey(epic, "empty"))}</p> : null}
      <ul className="wid-rows">
        {subIssues.map((child) => (
          <SubItemRow key={child.id} parentId={workItemId} fallback={child as WorkItem} epic={epic} />
        ))}
      </ul>
      {mode === "create" ? <CreateSubItem workItemId={workItemId} epic={epic} onDone={() => setMode("idle")} /> : null}
    </Widget>
  );
}

function SubItemRow({ parentId, fallback, epic }: { parentId: string; fallback: WorkItem; epic: boolean }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const meta = useProjectMeta(ctx.projectId);
  const cached = useWorkItem(fallback.id);
  const child = cached ?? fallback;
  const state = meta?.states.find((s) => s.id === child.state_id);
  const key = workItemKey(ctx.identifier, child.sequence_id);

  // A change made on the board (or in this list) moves the progress bar too.
  useEffect(() => {
    if (cached && cached !== fallback && cached.parent_id === parentId) syncSubIssue(parentId, cached);
  }, [cached, fallback, parentId]);

  return (
    <li className="wid-row">
      <StateIcon group={state?.group ?? child.state__group} color={state?.color} />
      <span className="wid-key">{key}</span>
      <Link className="wid-row-name" to={browsePath(ctx.slug, key)}>
        {child.name}
      </Link>
      <span className="wid-row-meta subtle">{state?.name}</span>
      {ctx.canEdit ? (
        <button
          type="button"
          className="wid-icon-btn"
          aria-label={t(childKey(epic, "removeNamed"), { key })}
          title={t(childKey(epic, "remove"))}
          onClick={() => void removeSubIssue(ctx.slug, ctx.projectId, parentId, child.id)}
        >
          <X size={14} aria-hidden />
        </button>
      ) : null}
    </li>
  );
}

function CreateSubItem({ workItemId, epic, onDone }: { workItemId: string; epic: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = name.trim();
    if (!value || busy) return;
    setBusy(true);
    const ok = await createSubIssue(ctx.slug, ctx.projectId, workItemId, value);
    setBusy(false);
    // Stay open for the next one.
    if (ok) setName("");
  }

  return (
    <form className="wid-inline-form" onSubmit={submit}>
      <input
        className="input input-compact"
        aria-label={t(childKey(epic, "newLabel"))}
        placeholder={t(childKey(epic, "newPlaceholder"))}
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onDone();
          }
        }}
        // biome-ignore lint/a11y/noAutofocus: opened to type the title
        autoFocus
      />
      <Button type="submit" size="sm" loading={busy} disabled={!name.trim()}>
        {t("workItem.subItems.create")}
      </Button>
      <Button variant="ghost" size="sm" onClick={onDone}>
        {t("workItem.subItems.cancel")}
      </Button>
    </form>
  );
}
