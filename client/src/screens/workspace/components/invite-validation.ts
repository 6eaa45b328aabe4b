/** Invitation rows (e-mail + role) and their checks, shared by the invite modal and onboarding. */
import { isValidEmail, ROLE } from "@tideline/shared";

export type InviteRow = { key: number; email: string; role: number; error?: string };

let nextKey = 1;
export function newInviteRow(role: number = ROLE.member): InviteRow {
  nextKey += 1;
  return { key: nextKey, email: "", role };
}

/**
 * Check the rows: blank rows are dropped, bad addresses get an error on their row.
 * Returns the rows with errors and the entries to send (empty when any row is wrong).
 */
export function validateInviteRows(
  rows: InviteRow[],
  messages: { invalid: string; duplicate: string },
): { rows: InviteRow[]; entries: { email: string; role: number }[] } {
  const seen = new Set<string>();
  let failed = false;
  const checked = rows.map((row) => {
    const email = row.email.trim().toLowerCase();
    if (!email) return { ...row, error: undefined };
    if (!isValidEmail(email)) {
      failed = true;
      return { ...row, error: messages.invalid };
    }
    if (seen.has(email)) {
      failed = true;
      return { ...row, error: messages.duplicate };
    }
    seen.add(email);
    return { ...row, error: undefined };
  });
  const entries = failed
    ? []
    : checked.filter((r) => r.email.trim()).map((r) => ({ email: r.email.trim().toLowerCase(), role: r.role }));
  return { rows: checked, entries };
}
