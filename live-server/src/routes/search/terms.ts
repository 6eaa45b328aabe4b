/**
 * What a search text means to the queries: the words for full-text search, LIKE patterns for
 * substrings and prefixes, the words long enough for trigram (typo) matching, and a work-item
 * key — `WEB-12`, `web-12`, `#12` or a bare `12` (shared parseSequenceSearch, the same reading
 * as the work-item lists' ?search=).
 */
import { parseSequenceSearch } from "@tideline/shared";

/** The longest search text read; longer texts are refused (schema.ts). */
export const SEARCH_TEXT_MAX = 255;

/** Trigrams of a word shorter than this say too little for a substring or typo match. */
const TRIGRAM_MIN = 3;

export type SearchTerms = {
  /** The text as typed (trimmed): what websearch_to_tsquery, similarity and equality read. */
  text: string;
  /** Lower-cased, LIKE-escaped text inside `%…%`; null when too short for the trigram index. */
  contains: string | null;
  /** Lower-cased, LIKE-escaped text followed by `%`. */
  prefix: string;
  /** `% text%`: a word of the (space-prefixed) name starts with the text — for short texts. */
  wordPrefix: string;
  /** Words (letters and digits) of at least three characters: each must match for a typo hit (none for a key). */
  fuzzyWords: string[];
  /** A work-item key: `identifier` null for a bare number. */
  key: { identifier: string | null; sequence: number } | null;
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Read a search text (already trimmed and non-empty). */
export function searchTerms(raw: string): SearchTerms {
  const text = raw.trim();
  const lower = escapeLike(text.toLowerCase());
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const key = parseSequenceSearch(text);
  return {
    text,
    contains: text.length >= TRIGRAM_MIN ? `%${lower}%` : null,
    prefix: `${lower}%`,
    wordPrefix: `% ${lower}%`,
    // A key (WEB-12, 12) is no misspelt word: nothing is looked for by trigram similarity.
    fuzzyWords: key ? [] : [...new Set(words.filter((w) => w.length >= TRIGRAM_MIN))].slice(0, 8),
    key,
  };
}
