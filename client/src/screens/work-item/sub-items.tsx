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
import { Menu, MenuItem } from "../workspace/components/menu";
import { subItemProgress, workItemKey } from "./format";
import { ItemSearch } from "./item-search";
import { StateIcon } from "./state-icon";
import { browsePath, useDetail, useDetailContext, useProjectMeta } from "./use-detail";
import { Widget } from "./widget";

/** `epic`: the item is an epic, whose children read as its work items rather than sub-items. */
export function SubItems({ workItemId, epic = false }: { workItemId: string; epic?: boolean }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const [mode, setMode] = useState<"idle" | "create" | "search">("idle");
  const subIssues = detail?.subIssues ?? [];
  const progress = subItemProgress(detail?.distribution ?? {}, STATE_GROUPS);

  const addButton = ctx.canEdit ? (
    <Popover.Root open={mode === "search"} onOpenChange={(open) => setMode(open ? "search" : "idle")}>
      <Menu
        trigger={
          <Button variant="ghost" size="sm">
            <Plus size={14} aria-hidden />
            {epic ? t("epics.children.add") : t("workItem.subItems.add")}
          </Button>
        }
      >
        <MenuItem onSelect={() => setMode("create")}>
          {epic ? t("epics.children.createNew") : t("workItem.subItems.createNew")}
        </MenuItem>
        <MenuItem onSelect={() => setTimeout(() => setMode("search"), 0)}>
          {t("workItem.subItems.addExisting")}
        </MenuItem>
      </Menu>
      <Popover.Anchor className="wid-anchor" />
      <Popover.Portal>
        <Popover.Content className="picker-pop wid-picker" sideOffset={4} align="end">
          <ItemSearch
            slug={ctx.slug}
            projectId={ctx.projectId}
            workItemId={workItemId}
            mode="sub_issue"
            label={t("workItem.subItems.searchLabel")}
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
      title={epic ? t("epics.children.title") : t("workItem.subItems.title")}
      count={subIssues.length}
      actions={addButton}
      extra={
        progress.total ? (
          <div className="wid-progress" title={t("workItem.subItems.progress", progress)}>
            <div
              className="wid-progress-bar"
              role="progressbar"
              aria-label={t("workItem.subItems.progress", progress)}
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
            <span className="subtle">{t("workItem.subItems.progress", progress)}</span>
          </div>
        ) : null
      }
    >
      {subIssues.length === 0 && mode !== "create" ? (
        <p className="wid-empty">{epic ? t("epics.children.empty") : t("workItem.subItems.empty")}</p>
      ) : null}
      <ul className="wid-rows">
        {subIssues.map((child) => (
          <SubItemRow key={child.id} parentId={workItemId} fallback={child as WorkItem} />
        ))}
      </ul>
      {mode === "create" ? <CreateSubItem workItemId={workItemId} onDone={() => setMode("idle")} /> : null}
    </Widget>
  );
}

function SubItemRow({ parentId, fallback }: { parentId: string; fallback: WorkItem }) {
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
          aria-label={t("workItem.subItems.removeNamed", { key })}
          title={t("workItem.subItems.remove")}
          onClick={() => void removeSubIssue(ctx.slug, ctx.projectId, parentId, child.id)}
        >
          <X size={14} aria-hidden />
        </button>
      ) : null}
    </li>
  );
}

function CreateSubItem({ workItemId, onDone }: { workItemId: string; onDone: () => void }) {
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
        aria-label={t("workItem.subItems.newLabel")}
        placeholder={t("workItem.subItems.newPlaceholder")}
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
