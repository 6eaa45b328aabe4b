/**
 * People mentioned in rich text. The editor writes a mention as
 * `<mention-component entity_identifier="<userId>" entity_name="user_mention" …>`; the HTML is
 * read with the same parser the sanitiser uses (not a regular expression), so attribute order,
 * quoting and case do not matter.
 */
import sanitizeHtml from "sanitize-html";
import { isUuid } from "../http/ids.ts";

/** Entity names that mean "a user" (none given counts as a user: that is the editor's default). */
const USER_ENTITY_NAMES = new Set(["", "user_mention", "user"]);

/** Distinct ids (lower case) of the users mentioned in `html`, in order of first mention. */
export function mentionedUserIds(html: string | null | undefined): string[] {
  if (!html || !/<mention-component/i.test(html)) return [];
  const found = new Set<string>();
  sanitizeHtml(html, {
    allowedTags: [],
    allowedAttributes: {},
    transformTags: {
      "mention-component": (tagName, attribs) => {
        const id = attribs.entity_identifier;
        const entity = (attribs.entity_name ?? "").toLowerCase();
        if (isUuid(id) && USER_ENTITY_NAMES.has(entity)) found.add(id.toLowerCase());
        return { tagName, attribs };
      },
    },
  });
  return [...found];
}
