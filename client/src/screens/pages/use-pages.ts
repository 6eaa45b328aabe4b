/**
 * What both pages screens need about where they are: the project (from the sidebar's list, or
 * fetched on a deep link), the caller's roles, the project's members (owners, mentions) and the
 * permissions on a page.
 */

import { personName, ROLE } from "@tideline/shared";
import { formatDistanceToNowStrict, parseISO } from "date-fns";
import { useMemo } from "react";
import { useSnapshot } from "valtio";
import type { Page } from "../../stores/pages";
import type { ProjectMember } from "../../stores/project-meta";
import { session } from "../../stores/session";
import { useProjectScreen } from "../workspace/use-project-screen";
import { highestRole, type PagePermissions, pagePermissions } from "./page-logic";

export type PagesProjectContext = ReturnType<typeof usePagesProject>;

export function usePagesProject(projectId: string) {
  const ctx = useProjectScreen(projectId);
  return { ...ctx, canCreate: ctx.projectRole >= ROLE.member && !ctx.project?.archived_at };
}

/** Permissions of the signed-in person on `page`, seen from project `projectId`. */
export function usePagePermissions(
  page: Page | undefined,
  ctx: { projectRole: number; roleOf: (id: string) => number | null },
): PagePermissions | null {
  const sessionSnap = useSnapshot(session);
  const userId = sessionSnap.user?.id;
  const { projectRole, roleOf } = ctx;
  return useMemo(() => {
    if (!page) return null;
    const role = highestRole(page.project_ids, roleOf, projectRole);
    return pagePermissions(page, { userId, role, projectRole });
  }, [page, userId, projectRole, roleOf]);
}

export type PersonInfo = { name: string; avatarUrl: string | null };

/** Name and picture of a user id among the project's members. */
export function personOf(members: readonly ProjectMember[], userId: string | null | undefined, fallback: string) {
  const member = userId ? members.find((m) => m.member === userId)?.member_details : undefined;
  if (!member) return { name: fallback, avatarUrl: null } satisfies PersonInfo;
  return { name: personName(member), avatarUrl: member.avatar_url } satisfies PersonInfo;
}

/** "3 hours ago"; "just now" under a minute (the clock of two machines never agrees exactly). */
export function relativeTime(iso: string, justNow: string): string {
  try {
    const date = parseISO(iso);
    if (Math.abs(Date.now() - date.getTime()) < 60_000) return justNow;
    return formatDistanceToNowStrict(date, { addSuffix: true });
  } catch {
    return iso.slice(0, 10);
  }
}

/** Absolute link to a page, for "Copy link". */
export function pageUrl(slug: string, projectId: string, pageId: string): string {
  return `${window.location.origin}/${slug}/projects/${projectId}/pages/${pageId}/`;
}
