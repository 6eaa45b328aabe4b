/**
 * "@" mentions: the shared mention node (shared/src/editor/mention.ts, the same node the server
 * reads to notify people) with a popup listing the people given, filtered by name as one types.
 */
import { MentionComponent, USER_MENTION_ENTITY } from "@tideline/shared/editor";
import type { Transaction } from "@tiptap/pm/state";
import { Avatar } from "../ui";
import { suggestionMenu } from "./suggestion-menu";
import type { Mentionable } from "./types";

const MAX_SHOWN = 8;

/**
 * A change that came from another person through Yjs (y-tiptap's sync plugin key "y-sync$"):
 * it must not open a popup under this person's caret. Read by key so yjs stays out of this chunk.
 */
export function fromCollaboration(transaction: Transaction): boolean {
  return Boolean(transaction.getMeta("y-sync$"));
}

/** People whose name matches `query`: names starting with it first, then any word, then anywhere. */
export function filterMentionables(people: readonly Mentionable[], query: string): Mentionable[] {
  const q = query.trim().toLowerCase();
  if (!q) return people.slice(0, MAX_SHOWN);
  const scored: { person: Mentionable; score: number }[] = [];
  for (const person of people) {
    const name = person.display_name.toLowerCase();
    const score = name.startsWith(q)
      ? 0
      : name.split(/[\s._-]+/).some((w) => w.startsWith(q))
        ? 1
        : name.includes(q)
          ? 2
          : -1;
    if (score >= 0) scored.push({ person, score });
  }
  scored.sort((a, b) => a.score - b.score || a.person.display_name.localeCompare(b.person.display_name));
  return scored.slice(0, MAX_SHOWN).map((s) => s.person);
}

/** The mention node with the "@" popup; `people` and `labels` are read when the popup opens or filters. */
export function mentionsWithPopup(
  people: { readonly current: readonly Mentionable[] | undefined },
  labels: () => { ariaLabel: string; emptyText: string },
) {
  return MentionComponent.configure({
    suggestion: {
      char: "@",
      shouldShow: ({ transaction }) => !fromCollaboration(transaction),
      items: ({ query }) => filterMentionables(people.current ?? [], query),
      render: suggestionMenu<Mentionable>(
        (items) =>
          items.map((p) => ({
            key: p.id,
            label: p.display_name,
            icon: <Avatar name={p.display_name} src={p.avatar_url ?? null} size={20} />,
          })),
        labels,
      ),
      command: ({ editor, range, props }) => {
        const person = props as Mentionable;
        // Swallow the space after the query if there is one: the mention brings its own.
        const after = editor.view.state.selection.$to.nodeAfter;
        const to = after?.text?.startsWith(" ") ? range.to + 1 : range.to;
        editor
          .chain()
          .focus()
          .insertContentAt({ from: range.from, to }, [
            {
              type: "mention",
              attrs: { id: person.id, label: person.display_name, entityName: USER_MENTION_ENTITY },
            },
            { type: "text", text: " " },
          ])
          .run();
      },
    },
  });
}

/** The mention node without a popup: mentions in the content show, "@" is plain text. */
export const mentionsReadOnly = MentionComponent.configure({ suggestion: { allow: () => false } });
