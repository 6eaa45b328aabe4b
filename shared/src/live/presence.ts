/**
 * Presence on live documents (awareness): how a person is named and coloured next to their
 * caret. The server overwrites every identity field of every awareness state a connection sends
 * (presenceIdentity: `user`, and the top-level `name` and `color` some editors read instead)
 * with these, computed from the account that authenticated the connection, so a client cannot
 * show its caret under someone else's name whichever field its peers read; the editor uses the
 * same functions for its own caret, so both agree.
 */

import { type NamedPerson, personName } from "../logic/person-name.ts";

/**
 * The awareness field that carries the name and colour: tiptap CollaborationCaret's `user`
 * ({name, color}), and the reference's editor's user ({id, name, color}, its TUserDetails).
 */
export const PRESENCE_USER_FIELD = "user";

/** Every awareness field that says who a caret is: the server sets each of them. */
export const PRESENCE_IDENTITY_FIELDS = [PRESENCE_USER_FIELD, "name", "color"] as const;

export type PresenceUser = { name: string; color: string };

/** What the server writes over each awareness state of a connection (see the file comment). */
export type PresenceIdentity = {
  user: PresenceUser & { id: string };
  name: string;
  color: string;
};

/**
 * Caret colours: mid-tones that read on light and dark pages and carry white label text. Data,
 * not theme: each person keeps their colour for everyone (CollaborationCaret wants #rrggbb).
 */
export const PRESENCE_COLOURS = [
  "#d9480f",
  "#c2255c",
  "#9c36b5",
  "#6741d9",
  "#3b5bdb",
  "#1971c2",
  "#0c8599",
  "#099268",
  "#2b8a3e",
  "#5c940d",
  "#e8590c",
  "#a61e4d",
] as const;

/** A stable colour for a user id (FNV-1a over the id's characters). */
export function presenceColour(userId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return PRESENCE_COLOURS[(hash >>> 0) % PRESENCE_COLOURS.length] as string;
}

/** The name shown next to a caret: the one every screen uses (logic/person-name.ts). */
export function presenceName(user: NamedPerson): string {
  return personName(user);
}

/** Name and colour of a user as every client shows them. */
export function presenceUser(user: Parameters<typeof presenceName>[0] & { id: string }): PresenceUser {
  return { name: presenceName(user), color: presenceColour(user.id) };
}

/** The identity fields of an awareness state of `user` (PRESENCE_IDENTITY_FIELDS), as the server sets them. */
export function presenceIdentity(user: Parameters<typeof presenceName>[0] & { id: string }): PresenceIdentity {
  const { name, color } = presenceUser(user);
  return { user: { id: user.id, name, color }, name, color };
}
