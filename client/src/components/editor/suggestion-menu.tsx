/**
 * The floating list behind "@" mentions and "/" commands: a listbox rendered with React
 * (ReactRenderer, so it sits in the editor's React tree and has i18n), placed and kept next to
 * the caret by the suggestion plugin's `mount` (Floating UI). The editor keeps the focus: arrows
 * move the highlighted option, Enter or Tab picks it, Escape closes (the plugin handles that).
 */
import type { Editor } from "@tiptap/core";
import { ReactRenderer } from "@tiptap/react";
import type { SuggestionKeyDownProps, SuggestionOptions, SuggestionProps } from "@tiptap/suggestion";
import clsx from "clsx";
import { type ReactNode, useEffect, useRef } from "react";

export type MenuOption = { key: string; label: string; hint?: string; icon?: ReactNode };

type MenuProps = {
  options: MenuOption[];
  index: number;
  ariaLabel: string;
  emptyText: string;
  onPick: (index: number) => void;
  onHover: (index: number) => void;
};

function SuggestionMenu({ options, index, ariaLabel, emptyText, onPick, onHover }: MenuProps) {
  const listRef = useRef<HTMLDivElement>(null);

  // Keep the highlighted option in view while arrowing through a long list.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the highlight moves
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }, [index]);

  return (
    <div ref={listRef} className="rte-suggest" role="listbox" aria-label={ariaLabel}>
      {options.length === 0 ? <div className="rte-suggest-empty">{emptyText}</div> : null}
      {options.map((option, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the editor keeps the focus and its keys drive the list (onKeyDown below)
        <div
          key={option.key}
          role="option"
          tabIndex={-1}
          aria-selected={i === index}
          className={clsx("rte-suggest-item", i === index && "rte-suggest-active")}
          // The editor keeps the focus (and the typed query) while the mouse picks.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => onHover(i)}
          onClick={() => onPick(i)}
        >
          {option.icon ? (
            <span className="rte-suggest-icon" aria-hidden>
              {option.icon}
            </span>
          ) : null}
          <span className="rte-suggest-text">
            <span className="rte-suggest-label">{option.label}</span>
            {option.hint ? <span className="rte-suggest-hint">{option.hint}</span> : null}
          </span>
        </div>
      ))}
    </div>
  );
}

type MenuRender<I> = NonNullable<SuggestionOptions<I, I>["render"]>;

/**
 * The `render` of a suggestion: shows `describe(items)` in a SuggestionMenu and drives it from
 * the keyboard. `labels` are read when the menu opens (they are translated strings).
 */
export function suggestionMenu<I>(
  describe: (items: I[]) => MenuOption[],
  labels: () => { ariaLabel: string; emptyText: string },
): MenuRender<I> {
  return () => {
    let renderer: ReactRenderer<unknown, MenuProps> | null = null;
    let unmount: (() => void) | null = null;
    let current: SuggestionProps<I, I> | null = null;
    let index = 0;
    let lastQuery = "";

    const pick = (i: number) => {
      const item = current?.items[i];
      if (current && item !== undefined) current.command(item);
    };

    const props = (): MenuProps => ({
      options: describe(current?.items ?? []),
      index,
      ...labels(),
      onPick: pick,
      onHover: (i) => {
        index = i;
        renderer?.updateProps({ index });
      },
    });

    const host = (editor: Editor): HTMLElement =>
      // Inside a dialog, stay in it (its focus trap and stacking); else the page.
      (editor.view.dom.closest<HTMLElement>('[role="dialog"]') ?? document.body) as HTMLElement;

    return {
      onStart: (p) => {
        current = p;
        index = 0;
        lastQuery = p.query;
        renderer = new ReactRenderer(SuggestionMenu, {
          editor: p.editor,
          props: props(),
          className: "rte-suggest-layer",
        });
        host(p.editor).appendChild(renderer.element);
        unmount = p.mount(renderer.element);
      },
      onUpdate: (p) => {
        current = p;
        // A new query starts at the top; otherwise keep the highlight within the list.
        if (p.query !== lastQuery) index = 0;
        lastQuery = p.query;
        index = Math.min(index, Math.max(0, p.items.length - 1));
        renderer?.updateProps(props());
      },
      onKeyDown: ({ event }: SuggestionKeyDownProps) => {
        const count = current?.items.length ?? 0;
        if (event.key === "Escape") return true;
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          if (!count) return true;
          index = (index + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
          renderer?.updateProps({ index });
          return true;
        }
        if (event.key === "Enter" || event.key === "Tab") {
          // Nothing matches: let Enter split the paragraph as usual.
          if (!count) return false;
          pick(index);
          return true;
        }
        return false;
      },
      onExit: () => {
        unmount?.();
        unmount = null;
        renderer?.destroy();
        renderer = null;
        current = null;
      },
    };
  };
}
