/**
 * Pure helpers of the work-item detail (no React, no store): sizes, dates, URLs, empty rich
 * text, reaction summaries and sub-item progress. Tested in format.test.ts.
 */
import { format } from "date-fns";

/** "512 B", "12.3 KB", "4.8 MB" (1024-based, as the 5 MB limit is). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Upload progress as a whole percent in 0…100 (calls-errors-sync §9: rounded to percent). */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}

/** A short type label from a MIME type or file name: "PDF", "PNG", "TXT", "FILE". */
export function fileTypeLabel(type: string, name: string): string {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1];
  if (ext) return ext.toUpperCase();
  const sub = type.split("/")[1];
  return sub ? sub.split(/[+.;-]/)[0]?.toUpperCase() || "FILE" : "FILE";
}

/**
 * A rich-text description counts as empty if blank or an empty paragraph (product-domain §5);
 * images alone are content.
 */
export function isEmptyRichText(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<img|<image-component|<mention-component/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;/g, " ")
    .trim();
  return text === "";
}

/** Only absolute http(s) URLs are links (the server refuses the rest). */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
}

/** What a typed link probably meant: "example.com" → "https://example.com". */
export function normalizeLinkInput(value: string): string {
  const trimmed = value.trim();
  if (trimmed && !/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && /^[^\s/]+\.[^\s]+/.test(trimmed)) return `https://${trimmed}`;
  return trimmed;
}

/** A link's label: its title, else the URL without the scheme. */
export function linkLabel(link: { url: string; title: string | null }): string {
  return link.title?.trim() || link.url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
}

/** Dates are yyyy-MM-dd, read from the first 10 characters (product-domain §5). */
export function dateOnly(value: string | null | undefined): string | null {
  if (!value) return null;
  const day = value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
}

/** "Jan 05, 2026" (product-domain §9: MMM dd, yyyy). */
export function formatDay(value: string | null | undefined): string {
  const day = dateOnly(value);
  if (!day) return "";
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return format(new Date(y, m - 1, d), "MMM dd, yyyy");
}

/** "Jan 05, 2026 14:03" for a moment. */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : format(date, "MMM dd, yyyy HH:mm");
}

/** Relative time in the product's units (s, m, h, d, mo, y): "just now", "5m ago", "3d ago". */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((now.getTime() - then) / 1000));
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days}d ago`;
  const months = Math.floor(days / 30);
  if (months < 12) return `${months}mo ago`;
  return `${Math.floor(days / 365)}y ago`;
}

/** "Ada", "Ada and Bob", "Ada, Bob, Cy, Di and +2 more" (product-domain §9: up to 4 names). */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  if (names.length <= 4) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${names.slice(0, 4).join(", ")} and +${names.length - 4} more`;
}

export type ReactionGroup = { emoji: string; count: number; mine: boolean; names: string[] };

/** Reactions grouped by emoji in order of first use, with whether the viewer is among them. */
export function groupReactions(
  reactions: readonly { reaction: string; actor: string; actor_name?: string | null }[],
  viewerId: string | null | undefined,
): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    let group = groups.get(r.reaction);
    if (!group) {
      group = { emoji: r.reaction, count: 0, mine: false, names: [] };
      groups.set(r.reaction, group);
    }
    group.count += 1;
    if (r.actor === viewerId) group.mine = true;
    if (r.actor_name) group.names.push(r.actor_name);
  }
  return [...groups.values()];
}

/** The ~8 common reactions of the picker. */
export const COMMON_REACTIONS = ["👍", "👎", "😄", "🎉", "😕", "❤️", "🚀", "👀"] as const;

export type Progress = { done: number; total: number; percent: number; segments: { group: string; count: number }[] };

/**
 * Sub-item progress from the state distribution: completed alone counts as done
 * (product-domain §4); the segments, in group order, draw the bar.
 */
export function subItemProgress(
  distribution: Readonly<Record<string, readonly string[]>>,
  groupOrder: readonly string[],
): Progress {
  const segments = groupOrder.map((group) => ({ group, count: distribution[group]?.length ?? 0 }));
  const total = segments.reduce((n, s) => n + s.count, 0);
  const done = distribution.completed?.length ?? 0;
  return { done, total, percent: total ? Math.round((done / total) * 100) : 0, segments };
}

/** "WEB-12". */
export function workItemKey(identifier: string | null | undefined, sequenceId: number): string {
  return identifier ? `${identifier}-${sequenceId}` : `#${sequenceId}`;
}
