/**
 * Validate a post-sign-in destination: a same-origin absolute path only. Anything that a
 * browser could resolve to another origin ("//evil", "/\\evil", "https://…", control chars)
 * is refused, so the sign-in redirect can never be an open redirect.
 */
export function safeNextPath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith("/")) return null;
  if (raw.startsWith("//") || raw.startsWith("/\\")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: we are rejecting them
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  try {
    const url = new URL(raw, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
