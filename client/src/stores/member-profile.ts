/**
 * A workspace member's profile (/:ws/profile/:userId/…): who they are and their counts per
 * project (GET user-profile/), the summary's numbers (GET user-stats/) and their history
 * (GET user-activity/, paged). Their assigned / created / subscribed work items are a board of
 * the local cache (screens/member-profile/issues-screen.tsx). Read-only screens: nothing here changes data, so there is nothing
 * to roll back; the activity export answers a CSV that is handed to the browser as a download.
 * Everything is keyed by `${slug}:${userId}` so two profiles never mix.
 */
import type { Priority } from "@tideline/shared";
import { api } from "../lib/api";
import { defineStore } from "../lib/store";
import { ACTIVITY_PER_PAGE, pageCursor } from "../screens/member-profile/profile-logic";

export type ProfileProject = {
  id: string;
  name: string;
  identifier: string;
  logo_props: Record<string, unknown>;
  created_issues: number;
  assigned_issues: number;
  completed_issues: number;
  pending_issues: number;
};

export type ProfileUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar_url: string | null;
  cover_image_url: string | null;
  date_joined: string;
};

/** GET user-profile/{userId}/ (live-server/src/routes/profile/stats-routes.ts). */
export type ProfileData = { project_data: ProfileProject[]; user_data: ProfileUser };

/** GET user-stats/{userId}/. */
export type ProfileStats = {
  state_distribution: { state_group: string; state_count: number }[];
  priority_distribution: { priority: Priority | null; priority_count: number }[];
  created_issues: number;
  assigned_issues: number;
  completed_issues: number;
  pending_issues: number;
  subscribed_issues: number;
  overdue_issues: number;
  present_cycles: { cycle__name: string; cycle__id: string; cycle__project_id: string }[];
  upcoming_cycles: { cycle__name: string; cycle__id: string; cycle__project_id: string }[];
  completed_by_date: { date: string; completed_count: number }[];
};

/** One history row of GET user-activity/ (routes/issue-details/history.ts + the item and project). */
export type ProfileActivity = {
  id: string;
  created_at: string;
  verb: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  actor: string | null;
  actor_detail: {
    id: string;
    first_name: string;
    last_name: string;
    display_name: string;
    avatar_url: string | null;
  } | null;
  project: string;
  issue: string | null;
  issue_detail: { id: string; name: string; sequence_id: number; is_epic: boolean } | null;
  project_detail: { id: string; identifier: string; name: string } | null;
};

type Status = "loading" | "ready" | "missing" | "error";

export type ProfileEntry = { status: Status; data: ProfileData | null };
export type StatsEntry = { status: Status; data: ProfileStats | null };
export type ActivityEntry = {
  status: "loading" | "ready" | "error";
  rows: ProfileActivity[];
  total: number;
  page: number;
  hasMore: boolean;
  loadingMore: boolean;
};

export const memberProfile = defineStore(() => ({
  profiles: {} as Record<string, ProfileEntry>,
  stats: {} as Record<string, StatsEntry>,
  activity: {} as Record<string, ActivityEntry>,
}));

const base = (slug: string) => `/api/workspaces/${slug}`;
export const profileKey = (slug: string, userId: string) => `${slug}:${userId}`;

function statusOf(error: unknown): number | undefined {
  return (error as { response?: Response }).response?.status;
}

/** Load a member's identity and per-project counts (again on every visit: counts move). */
export async function loadMemberProfile(slug: string, userId: string): Promise<void> {
  const key = profileKey(slug, userId);
  const current = memberProfile.profiles[key];
  if (!current) memberProfile.profiles[key] = { status: "loading", data: null };
  try {
    const data = await api.get(`${base(slug)}/user-profile/${userId}/`).json<ProfileData>();
    memberProfile.profiles[key] = { status: "ready", data };
  } catch (error) {
    const entry = memberProfile.profiles[key];
    // A profile that is not there (or not visible) is a 404: say so instead of retrying.
    if (entry && entry.status !== "ready") entry.status = statusOf(error) === 404 ? "missing" : "error";
  }
}

/** Load the summary's numbers (state/priority shares, tiles, completed work by day). */
export async function loadMemberStats(slug: string, userId: string): Promise<void> {
  const key = profileKey(slug, userId);
  if (!memberProfile.stats[key]) memberProfile.stats[key] = { status: "loading", data: null };
  try {
    const data = await api.get(`${base(slug)}/user-stats/${userId}/`).json<ProfileStats>();
    memberProfile.stats[key] = { status: "ready", data };
  } catch (error) {
    const entry = memberProfile.stats[key];
    if (entry && entry.status !== "ready") entry.status = statusOf(error) === 404 ? "missing" : "error";
  }
}

type ActivityPage = { results: ProfileActivity[]; total_results: number; next_page_results: boolean };

/** The member's newest history, or with `more` the next page ("Load more"). */
export async function loadMemberActivity(slug: string, userId: string, more = false): Promise<void> {
  const key = profileKey(slug, userId);
  const current = memberProfile.activity[key];
  if (more && (current?.status !== "ready" || !current.hasMore || current.loadingMore)) return;
  const page = more && current ? current.page + 1 : 0;
  if (more && current) current.loadingMore = true;
  else if (!current)
    memberProfile.activity[key] = {
      status: "loading",
      rows: [],
      total: 0,
      page: 0,
      hasMore: false,
      loadingMore: false,
    };
  try {
    const answer = await api
      .get(`${base(slug)}/user-activity/${userId}/?cursor=${pageCursor(ACTIVITY_PER_PAGE, page)}`)
      .json<ActivityPage>();
    const entry = memberProfile.activity[key];
    const before = more && entry ? entry.rows : [];
    const seen = new Set(before.map((r) => r.id));
    memberProfile.activity[key] = {
      status: "ready",
      rows: [...before, ...answer.results.filter((r) => !seen.has(r.id))],
      total: answer.total_results,
      page,
      hasMore: answer.next_page_results,
      loadingMore: false,
    };
  } catch (error) {
    const entry = memberProfile.activity[key];
    if (entry) {
      entry.loadingMore = false;
      if (!more) entry.status = "error";
    }
    throw error;
  }
}

/**
 * One day of the member's history as CSV (POST user-activity/{id}/export/), saved by the browser
 * under `fileName`. Throws on failure; the caller says so.
 */
export async function exportMemberActivity(slug: string, userId: string, day: string, fileName: string): Promise<void> {
  const blob = await api.post(`${base(slug)}/user-activity/${userId}/export/`, { json: { date: day } }).blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
