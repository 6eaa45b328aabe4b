/**
 * A member mention, as stored in rich text:
 * `<mention-component entity_identifier="<userId>" entity_name="user_mention" label="<name>"></mention-component>`.
 * The server reads exactly that to notify the people mentioned (live-server/src/notifications/
 * mentions.ts) and its sanitiser keeps only those attributes (content/sanitize.ts), so the
 * element is empty: the editor and read-only views show the name from `label` with CSS.
 *
 * The browser editor configures the suggestion popup on top of this node
 * (`MentionComponent.configure({ suggestion })`); the server uses it as is, for its schema only.
 * Older content written as tiptap's default `<span data-type="mention" data-id data-label>` is
 * still read, and written back in the stored form.
 */
import { mergeAttributes } from "@tiptap/core";
import { Mention } from "@tiptap/extension-mention";

/** The element a mention is stored as. */
export const MENTION_TAG = "mention-component";
/** `entity_name` of a mention of a workspace member. */
export const USER_MENTION_ENTITY = "user_mention";

export type MentionAttributes = { id: string | null; label: string | null; entityName: string };

export const MentionComponent = Mention.extend({
  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element) => element.getAttribute("entity_identifier") ?? element.getAttribute("data-id"),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.id ? { entity_identifier: String(attributes.id) } : {},
      },
      entityName: {
        default: USER_MENTION_ENTITY,
        parseHTML: (element) => element.getAttribute("entity_name") || USER_MENTION_ENTITY,
        renderHTML: (attributes: Record<string, unknown>) => ({
          entity_name: String(attributes.entityName || USER_MENTION_ENTITY),
        }),
      },
      label: {
        default: null,
        parseHTML: (element) => element.getAttribute("label") ?? element.getAttribute("data-label"),
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.label ? { label: String(attributes.label) } : {},
      },
      // Kept for tiptap's Mention internals (which trigger made it); never written to HTML.
      mentionSuggestionChar: { default: "@", rendered: false },
    };
  },

  parseHTML() {
    return [{ tag: MENTION_TAG }, { tag: 'span[data-type="mention"]' }];
  },

  renderHTML({ HTMLAttributes }) {
    // Empty on purpose: the stored form carries the name in `label` only (see above).
    return [MENTION_TAG, mergeAttributes(this.options.HTMLAttributes, HTMLAttributes)];
  },
});
