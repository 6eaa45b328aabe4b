/**
 * Exports of work items (Settings → Exports, admins only): the workspace's export history, newest
 * first, and starting an export. The server runs an export as a job; its progress arrives as
 * export.created / export.updated on the workspace channel (stores/live-workspace.ts listeners),
 * and the list is read again after every (re)connection.
 */
import type { DomainEvent } from "@tideline/shared";
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

export type ExportProvider = "csv" | "xlsx" | "json";
export const EXPORT_PROVIDERS: readonly ExportProvider[] = ["csv", "xlsx", "json"];

export type ExportStatus = "queued" | "processing" | "completed" | "failed";

/** The reference's ExporterHistory, plus progress, counts, file and expiry. */
export type WorkspaceExport = {
  id: string;
  created_at: string;
  updated_at: string;
  project: string[];
  provider: ExportProvider;
  multiple: boolean;
  status: ExportStatus;
  reason: string;
  progress: number;
  exported_items: number;
  total_items: number | null;
  url: string | null;
  file_name: string | null;
  size: number | null;
  completed_at: string | null;
  expired_at: string | null;
  is_expired: boolean;
  initiated_by: string;
  initiated_by_detail: {
    id: string;
    display_name: string;
    first_name: string;
    last_name: string;
    avatar_url?: string | null;
  } | null;
};

type Page = { results: WorkspaceExport[]; next_page_results: boolean; next_cursor: string };

/** Rows read per page of the history. */
export const EXPORT_PAGE_SIZE = 20;

export const exportsStore = defineStore(() => ({
  /** The history per workspace slug, newest first (undefined until read). */
  bySlug: {} as Record<string, WorkspaceExport[] | undefined>,
  /** Whether older exports are left to read, per slug. */
  moreBySlug: {} as Record<string, boolean>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/export-issues/`;

/** Read the first page again (on opening the screen and after a reconnection); older pages read so far stay. */
export async function loadExports(slug: string): Promise<void> {
  const held = exportsStore.bySlug[slug]?.length ?? 0;
  const size = Math.max(EXPORT_PAGE_SIZE, Math.min(100, held));
  const page = await api.get(base(slug), { searchParams: { per_page: size, cursor: `${size}:0:0` } }).json<Page>();
  exportsStore.bySlug[slug] = page.results;
  exportsStore.moreBySlug[slug] = page.next_page_results;
}

/** Read the next page of older exports. */
export async function loadMoreExports(slug: string): Promise<void> {
  const held = exportsStore.bySlug[slug] ?? [];
  // Pages of the held length's divisor: the page after what is held.
  const size = EXPORT_PAGE_SIZE;
  const pageIndex = Math.floor(held.length / size);
  const page = await api
    .get(base(slug), { searchParams: { per_page: size, cursor: `${size}:${pageIndex}:0` } })
    .json<Page>();
  const known = new Set(held.map((e) => e.id));
  exportsStore.bySlug[slug] = [...held, ...page.results.filter((e) => !known.has(e.id))];
  exportsStore.moreBySlug[slug] = page.next_page_results;
}

/** Start an export; `projects` empty means every project the caller is in. Throws the server's refusal. */
export async function startExport(slug: string, provider: ExportProvider, projects: string[]): Promise<void> {
  const answer = await api
    .post(base(slug), { json: { provider, project: projects, multiple: false } })
    .json<{ message: string; export: WorkspaceExport }>();
  upsert(slug, answer.export);
}

function upsert(slug: string, row: WorkspaceExport): void {
  const list = exportsStore.bySlug[slug];
  if (!list) return;
  const index = list.findIndex((e) => e.id === row.id);
  if (index >= 0) {
    // Events may arrive out of order with the POST's answer: keep the newer.
    if (list[index] && list[index].updated_at > row.updated_at) return;
    list[index] = row;
  } else list.unshift(row);
}

/** Apply an export.* event of the workspace channel. */
export function applyExportEvent(slug: string, event: DomainEvent): void {
  if (event.type !== "export.created" && event.type !== "export.updated") return;
  upsert(slug, event.data as unknown as WorkspaceExport);
}
