/**
 * Rich text from clients (descriptions, comments) is sanitised on the server with an
 * allow-list before it is stored: the editor's own nodes and marks survive, scripts, event
 * handlers, iframes and foreign styles do not. A plain-text copy is kept for search.
 */
import sanitizeHtml from "sanitize-html";

const ALLOWED_TAGS = [
  "p",
  "br",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "img",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "colgroup",
  "col",
  "span",
  "div",
  "mark",
  "sub",
  "sup",
  "label",
  "input",
  "mention-component",
  "image-component",
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ["href", "target", "rel", "title"],
    img: ["src", "alt", "title", "width", "height", "data-asset-id"],
    "image-component": ["src", "id", "width", "height", "aspectratio"],
    "mention-component": ["id", "entity_identifier", "entity_name", "label", "target"],
    code: ["class"],
    pre: ["class"],
    span: ["class", "data-type", "data-id", "data-label"],
    div: ["class", "data-type"],
    ul: ["class", "data-type"],
    ol: ["start", "class", "data-type"],
    li: ["class", "data-type", "data-checked"],
    input: ["type", "checked", "disabled"],
    label: ["contenteditable"],
    th: ["colspan", "rowspan", "colwidth", "style"],
    td: ["colspan", "rowspan", "colwidth", "style"],
    col: ["style"],
    p: ["style"],
    mark: ["data-color", "style"],
  },
  allowedStyles: {
    "*": {
      "text-align": [/^(left|right|center|justify)$/],
      "min-width": [/^\d+(px|em|%)$/],
      width: [/^\d+(px|em|%)$/],
      "background-color": [/^#[0-9a-f]{3,8}$/i, /^var\(--[a-z0-9-]+\)$/i],
      color: [/^#[0-9a-f]{3,8}$/i, /^var\(--[a-z0-9-]+\)$/i],
    },
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  allowedClasses: { code: [/^language-[a-z0-9+#-]+$/i], pre: [/^language-[a-z0-9+#-]+$/i] },
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "noopener noreferrer nofollow", ...(attribs.target ? { target: "_blank" } : {}) },
    }),
    // Relative asset paths (/api/assets/…) are ours; sanitize-html keeps them as-is.
  },
};

/** Sanitised HTML; an empty document becomes "<p></p>". */
export function sanitizeRichText(html: string): string {
  const clean = sanitizeHtml(html, OPTIONS).trim();
  return clean === "" ? "<p></p>" : clean;
}

/** Plain text for search: tags dropped, block ends turned into spaces, whitespace folded. */
export function htmlToPlainText(html: string): string {
  // A mention reads as "@Label" (as the editor shows it): excerpts and search keep who was named.
  const mentionsAsText = html.replace(/<mention-component\b[^>]*?\blabel="([^"]*)"[^>]*>/gi, " @$1 ");
  const text = sanitizeHtml(mentionsAsText.replace(/<\/(p|h[1-6]|li|div|pre|blockquote|tr)>|<br\s*\/?>/gi, " "), {
    allowedTags: [],
    allowedAttributes: {},
  });
  return text
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** A description counts as empty when blank or a lone empty paragraph (product-domain §5). */
export function isEmptyRichText(html: string | null | undefined): boolean {
  if (!html) return true;
  return htmlToPlainText(html) === "" && !/<img|<image-component|<mention-component/i.test(html);
}
