/**
 * Pure project rules both the server and the client apply: identifier checks, which role a
 * project member may get, the last-admin guard, and the small value checks of project settings.
 */
import { PROJECT_COVERS, PROJECT_IDENTIFIER_MAX } from "../constants/project.ts";
import { ROLE, type Role } from "../constants/roles.ts";
import { sanitizeIdentifier } from "./identifier.ts";

/** Months after which closed items are archived / open items auto-closed; 0 means never. */
export const PROJECT_AUTOMATION_MONTHS = [0, 1, 3, 6, 9, 12] as const;
export type ProjectAutomationMonths = (typeof PROJECT_AUTOMATION_MONTHS)[number];

export type IdentifierCheck = { ok: true; identifier: string } | { ok: false; message: string };

/**
 * Sanitise a typed identifier and say what is wrong with it, if anything. Length is judged on
 * the cleaned text before truncation, so "ABCDEFGHIJKLMN" is refused rather than silently cut.
 */
export function checkProjectIdentifier(raw: string): IdentifierCheck {
  const cleaned = sanitizeIdentifier(raw);
  if (!cleaned) return { ok: false, message: "Identifier must contain at least one letter or digit." };
  // sanitizeIdentifier truncates; compare with the untruncated count of kept characters.
  const kept = raw.replace(/[^A-Za-z0-9ÇĞİÖŞÜçğıöşü]/g, "").length;
  if (kept > PROJECT_IDENTIFIER_MAX) {
    return { ok: false, message: `Identifier can be at most ${PROJECT_IDENTIFIER_MAX} characters.` };
  }
  return { ok: true, identifier: cleaned };
}

/** The role that joining a project gives: the workspace role, or member if there is none. */
export function joinRoleFor(workspaceRole: number | null | undefined): Role {
  if (workspaceRole === undefined || workspaceRole === null) return ROLE.member;
  if (workspaceRole >= ROLE.admin) return ROLE.admin;
  if (workspaceRole >= ROLE.member) return ROLE.member;
  return ROLE.guest;
}

/**
 * Why `requested` may not be given to a project member, or null when it may: a project role
 * never exceeds the person's workspace role, and nobody grants a role above their own.
 */
export function projectRoleError(input: {
  requested: number;
  targetWorkspaceRole: number;
  callerRole: number;
}): string | null {
  if (input.requested > input.targetWorkspaceRole) {
    return "A project role can't be higher than the person's workspace role.";
  }
  if (input.requested > input.callerRole) return "You can't give a role higher than your own.";
  return null;
}

/**
 * True when changing one member from `currentRole` to `nextRole` (null: removed or leaving)
 * would leave the project with no admin; `adminCount` counts the active admins now.
 */
export function removesLastAdmin(adminCount: number, currentRole: number, nextRole: number | null): boolean {
  if (currentRole < ROLE.admin) return false;
  if (nextRole !== null && nextRole >= ROLE.admin) return false;
  return adminCount <= 1;
}

/** An IANA zone name the runtime knows (UTC included). */
export function isValidTimezone(value: string): boolean {
  if (value === "UTC") return true;
  return Intl.supportedValuesOf("timeZone").includes(value);
}

/**
 * A project cover is one of the shipped gradient presets, an uploaded asset of this server or
 * an http(s) address; anything else (javascript:, data:, CSS) could smuggle content into styles.
 */
export function isAcceptableCoverImage(value: string): boolean {
  if ((PROJECT_COVERS as readonly string[]).includes(value)) return true;
  if (value.startsWith("/api/assets/")) return !/[\s"'()\\]/.test(value);
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !/[\s"'()\\]/.test(value);
  } catch {
    return false;
  }
}

/** Sort order that puts a newly joined project first: below the smallest, or the default. */
export function sortOrderAtTop(smallest: number | null | undefined, step = 10000): number {
  return smallest === null || smallest === undefined ? 65535 : smallest - step;
}
