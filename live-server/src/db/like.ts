/** A user's text inside a LIKE / ILIKE pattern, matched literally (`%`, `_` and `\` escaped). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
