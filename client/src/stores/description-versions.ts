/**
 * A work item's description history (GET …/issues/{id}/description-versions/): the saved
 * versions, newest first, and each opened version's description. Read-only: the server records
 * versions itself (on REST writes and while the description is edited live).
 */
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

export type DescriptionVersion = {
  id: string;
  issue: string;
  owned_by: string | null;
  last_saved_at: string;
  created_at: string;
};

export type DescriptionVersionDetail = DescriptionVersion & {
  description_html: string;
  description_stripped: string;
};

type ListPage = { results: DescriptionVersion[]; next_cursor: string; next_page_results: boolean };

export type VersionList = {
  status: "loading" | "ready" | "error";
  list: DescriptionVersion[];
  /** Cursor of the next page, while there is one. */
  next: string | null;
};

export const descriptionVersions = defineStore(() => ({
  byItem: {} as Record<string, VersionList>,
  details: {} as Record<string, DescriptionVersionDetail>,
}));

const PAGE_SIZE = 20;
const itemPath = (slug: string, projectId: string, itemId: string) =>
  `/api/workspaces/${slug}/projects/${projectId}/issues/${itemId}/description-versions`;

/** Load the first page again (opening the history), or the next one (`more`). */
export async function loadDescriptionVersions(
  slug: string,
  projectId: string,
  itemId: string,
  options: { more?: boolean } = {},
): Promise<void> {
  const current = descriptionVersions.byItem[itemId];
  const cursor = options.more ? current?.next : `${PAGE_SIZE}:0:0`;
  if (!cursor) return;
  const keep = options.more ? (current?.list ?? []) : [];
  descriptionVersions.byItem[itemId] = { status: "loading", list: current?.list ?? [], next: current?.next ?? null };
  try {
    const page = await api.get(`${itemPath(slug, projectId, itemId)}/`, { searchParams: { cursor } }).json<ListPage>();
    descriptionVersions.byItem[itemId] = {
      status: "ready",
      list: [...keep, ...page.results.filter((v) => !keep.some((k) => k.id === v.id))],
      next: page.next_page_results ? page.next_cursor : null,
    };
  } catch (error) {
    descriptionVersions.byItem[itemId] = { status: "error", list: current?.list ?? [], next: current?.next ?? null };
    throw error;
  }
}

/** One version with its description (kept once loaded: a version never changes). */
export async function loadDescriptionVersion(
  slug: string,
  projectId: string,
  itemId: string,
  versionId: string,
): Promise<DescriptionVersionDetail> {
  const known = descriptionVersions.details[versionId];
  if (known) return known;
  const detail = await api.get(`${itemPath(slug, projectId, itemId)}/${versionId}/`).json<DescriptionVersionDetail>();
  descriptionVersions.details[versionId] = detail;
  return detail;
}
