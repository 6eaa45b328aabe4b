/**
 * The set-up form's non-secret fields, kept in sessionStorage while the form post is on its
 * way: a refusal reloads the page with only the email in the query.
 */
const DRAFT_KEY = "tideline:god-mode-setup";

export type Draft = { first_name: string; last_name: string; company_name: string };

const EMPTY: Draft = { first_name: "", last_name: "", company_name: "" };

export function readDraft(): Draft {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    return raw ? { ...EMPTY, ...(JSON.parse(raw) as Partial<Draft>) } : { ...EMPTY };
  } catch {
    return { ...EMPTY };
  }
}

export function writeDraft(draft: Draft): void {
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // Not kept: a refused set-up then asks for these again.
  }
}

/** Forget the draft once the set-up has succeeded. */
export function clearDraft(): void {
  try {
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}
