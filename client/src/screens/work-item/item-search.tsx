/**
 * Search the project's work items for a picker (parent, sub-items, relations): the server's
 * search-issues/ with the picker's rule (no loops, no existing relations). Debounced as you
 * type; arrow keys move, Enter picks.
 */
import clsx from "clsx";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import { type SearchResult, searchForPicker } from "../../stores/work-item-detail";
import { StateIcon } from "./state-icon";

type Props = {
  slug: string;
  projectId: string;
  workItemId: string;
  mode: "parent" | "sub_issue" | "issue_relation";
  label: string;
  onPick: (item: SearchResult) => void;
  /** Shown above the search field (e.g. the relation kind). */
  header?: ReactNode;
};

export function ItemSearch({ slug, projectId, workItemId, mode, label, onPick, header }: Props) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();

  useEffect(() => {
    let alive = true;
    const timer = setTimeout(
      () => {
        searchForPicker(slug, projectId, workItemId, query.trim(), mode)
          .then((rows) => {
            if (!alive) return;
            setResults(rows);
            setError(null);
            setActive(0);
          })
          .catch(async (err: unknown) => {
            if (alive) setError(await errorMessage(err, t("workItem.picker.failed")));
          });
      },
      query ? 200 : 0,
    );
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [slug, projectId, workItemId, mode, query, t]);

  function onKeyDown(event: KeyboardEvent) {
    const list = results ?? [];
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((i) => Math.min(list.length - 1, i + 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      const item = list[active];
      if (item) onPick(item);
    }
  }

  return (
    <div className="wid-search">
      {header}
      <input
        className="input input-compact"
        placeholder={t("workItem.picker.search")}
        aria-label={label}
        aria-controls={listId}
        aria-activedescendant={results?.[active] ? `${listId}-${active}` : undefined}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        // biome-ignore lint/a11y/noAutofocus: the picker opens to type into it
        autoFocus
      />
      <div className="wid-picker-list" role="listbox" id={listId} aria-label={label}>
        {error ? (
          <p className="wid-picker-empty" role="alert">
            {error}
          </p>
        ) : results === null ? (
          <div className="wid-picker-empty">
            <Spinner />
          </div>
        ) : results.length === 0 ? (
          <p className="wid-picker-empty">{t("workItem.picker.noResults")}</p>
        ) : (
          results.map((item, index) => (
            <div
              key={item.id}
              id={`${listId}-${index}`}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              className={clsx("wid-picker-option", index === active && "is-active")}
              onMouseEnter={() => setActive(index)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(item)}
              onKeyDown={() => undefined}
            >
              <StateIcon group={item.state__group} color={item.state__color} />
              <span className="wid-key">
                {item.project__identifier}-{item.sequence_id}
              </span>
              <span className="wid-picker-label">{item.name}</span>
            </div>
          ))
        )}
      </div>
    </div>
  );
}
