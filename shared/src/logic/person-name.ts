/**
 * How people are named: one rule for every screen, the server's exports and the carets on live
 * documents (the reference's). A person is named by their display name (the handle they chose in
 * onboarding or their profile) wherever they appear in passing: pickers, avatars, rows, activity,
 * comments, reactions, notifications, carets. Only where a person is introduced (their profile
 * card, the members lists, the invitation that names who invited you) does the full name lead,
 * with the handle beside it. Each falls back to the other, then to the e-mail address.
 */
export type NamedPerson = {
  display_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
};

function fullNameOf(person: NamedPerson): string {
  return `${person.first_name ?? ""} ${person.last_name ?? ""}`.trim();
}

/** A person wherever they appear in passing: display name, else full name, else e-mail. */
export function personName(person: NamedPerson): string {
  return person.display_name?.trim() || fullNameOf(person) || person.email || "?";
}

/** A person where they are introduced (profile card, members lists): full name, else display name, else e-mail. */
export function personFullName(person: NamedPerson): string {
  return fullNameOf(person) || person.display_name?.trim() || person.email || "?";
}
