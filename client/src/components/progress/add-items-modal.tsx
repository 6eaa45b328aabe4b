/**
 * "Add existing work items" to a cycle or a module: search the project's items in the local
 * cache (every item of the project is there, so the list answers as you type; by name, key or
 * number), tick several, add them in one call. Items already in the container are not offered;
 * the caller may note something beside an item (a cycle says which other cycle it leaves).
 * The search field takes the focus when the dialog opens; Enter adds what is ticked; Escape
 * closes (the Modal's).
 */
import { Search } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { StateIcon } from "../../screens/work-item/state-icon";
import { focusOnMount } from "../../screens/workspace/components/focus";
import { useProjectWorkItems, type WorkItem } from "../../stores/work-items";
import { Button, EmptyState, Modal, ModalFooter, Spinner } from "../ui";
import "./progress.css";

const SHOWN = 60;

/**
 * Items that may be added: live (not archived, not drafts, saved: a temp- item has no id the
 * server knows), work items rather than epics (the project's cache holds its epics too once an
 * epics screen was opened; the server refuses them in a cycle or module), not already in,
 * matching the query by name, key (WEB-12) or number (12).
 */
export function addableItems<
  T extends Pick<WorkItem, "id" | "name" | "sequence_id" | "archived_at" | "is_draft" | "is_epic">,
>(items: readonly T[], isIn: (item: T) => boolean, query: string, identifier: string): T[] {
  const q = query.trim().toLowerCase();
  return items.filter((item) => {
    if (item.archived_at || item.is_draft || item.is_epic || item.id.startsWith("temp-") || isIn(item)) return false;
    if (!q) return true;
    return (
      item.name.toLowerCase().includes(q) ||
      `${identifier}-${item.sequence_id}`.toLowerCase().includes(q) ||
      String(item.sequence_id) === q
    );
  });
}

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  projectId: string;
  identifier: string;
  isIn: (item: WorkItem) => boolean;
  /** A short note beside an item (e.g. "in Sprint 2": adding moves it). */
  note?: (item: WorkItem) => string | undefined;
  stateColor?: (stateId: string | null) => string | undefined;
  /** Shown when nothing is left to add. */
  noneText: string;
  submitLabel: (count: number) => string;
  submitTestId?: string;
  /** Adds the ids; true closes the dialog (a failure keeps it open with the ticks). */
  onSubmit: (ids: string[]) => Promise<boolean>;
};

export function AddItemsModal(props: Props) {
  const { open, onOpenChange, title, projectId, identifier, isIn, note, stateColor } = props;
  const { t } = useTranslation();
  const { items, status } = useProjectWorkItems(projectId);
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
    () => addableItems(items, isIn, query, identifier).sort((a, b) => b.sequence_id - a.sequence_id),
    [items, isIn, query, identifier],
  );

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
    const ok = await props.onSubmit([...picked]);
    setBusy(false);
    if (ok) onOpenChange(false);
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title} width={600}>
      <form onSubmit={submit}>
        <div className="search-input pg-add-search">
          <Search size={14} aria-hidden />
          <input
            className="input"
            type="search"
            placeholder={t("charts.addItems.search")}
            aria-label={t("charts.addItems.search")}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            ref={focusOnMount}
          />
        </div>
        {status !== "ready" && items.length === 0 ? (
          <div className="pg-add-loading">
            <Spinner />
          </div>
        ) : matches.length === 0 ? (
          <EmptyState icon={Search} title={query.trim() ? t("charts.addItems.noMatch") : props.noneText} />
        ) : (
          <ul className="pg-add-list" aria-label={t("charts.addItems.results")}>
            {matches.slice(0, SHOWN).map((item) => {
              const aside = note?.(item);
              return (
                <li key={item.id}>
                  <label className="pg-add-row">
                    <input type="checkbox" checked={picked.has(item.id)} onChange={() => toggle(item.id)} />
                    <StateIcon group={item.state__group} color={stateColor?.(item.state_id)} />
                    <span className="pg-add-key">
                      {identifier}-{item.sequence_id}
                    </span>
                    <span className="pg-add-name">{item.name}</span>
                    {aside ? <span className="pg-add-note">{aside}</span> : null}
                  </label>
                </li>
              );
            })}
            {matches.length > SHOWN ? (
              <li className="pg-add-more">{t("charts.addItems.more", { count: matches.length - SHOWN })}</li>
            ) : null}
          </ul>
        )}
        <ModalFooter>
          <span className="pg-add-picked">{t("charts.addItems.picked", { count: picked.size })}</span>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("charts.addItems.cancel")}
          </Button>
          <Button type="submit" disabled={!picked.size} loading={busy} data-testid={props.submitTestId}>
            {props.submitLabel(picked.size)}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
