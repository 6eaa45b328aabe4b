/**
 * The local database's shape (calls-errors-sync §3 "Local database tables"). Rows are stored as
 * the in-memory stores hold them, so hydrating is a plain read with no mapping.
 */
import type { DBSchema } from "idb";
import type { Cycle } from "../../stores/cycles";
import type { Module } from "../../stores/modules";
import type { Estimate, ProjectLabel, ProjectMember, ProjectState } from "../../stores/project-meta";
import type { WorkItem } from "../../stores/work-items";

/** The spec's local database version: a stored copy of another version is cleared at open. */
export const LOCAL_DB_VERSION = "1.1";
/** IndexedDB's own schema version (object stores and indexes); bumped only when they change. */
export const IDB_SCHEMA_VERSION = 2;
/** One database per user: the name carries the user id, so nobody else's copy is ever opened. */
export const DB_PREFIX = "tideline:local:";
export const databaseName = (userId: string) => `${DB_PREFIX}${userId}`;

/**
 * Where a project's copy stands. `complete`: every work item up to `since` is stored (a board can
 * paint from it). While a first sync is under way `cursor` is the server's next_cursor after the
 * last stored page, so an interrupted sync resumes there instead of starting over.
 */
export type ProjectSyncRecord = {
  complete: boolean;
  /** The delta refresh's mark (the newest updated_at of the project's work items). */
  since: string | null;
  cursor: string | null;
  syncedAt: string;
  /** Grows whenever the project's rows in `issues` change: a snapshot of another stamp is stale. */
  stamp: number;
  /**
   * The server's `scope` for the rows (v2 sync list: `all`, or `own` for a restricted guest); the
   * copy was made under it. Another scope in a later answer means the user's rights changed:
   * the copy is synced again in full. Missing (a copy of an older build) or null (pages of
   * different scopes) counts as unknown, which also syncs again.
   */
  scope?: string | null;
};

/**
 * A project's items as JSON text, in chunks: what a warm open reads. Reading 10,000 rows from
 * `issues` costs 180–470 ms in Chromium (structured clone of each object), these chunks 40–70 ms
 * (measured on the 10,000-item bench board). Valid while its stamp equals the sync record's.
 */
export type ProjectSnapshot = { project_id: string; stamp: number; chunks: string[] };

type ByProject<T> = { key: string; value: T & { project_id: string }; indexes: { project_id: string } };

export interface LocalSchema extends DBSchema {
  issues: { key: string; value: WorkItem; indexes: { project_id: string } };
  states: ByProject<ProjectState>;
  labels: ByProject<ProjectLabel>;
  /** The project's memberships (role and the person), as the project-meta store holds them. */
  members: ByProject<ProjectMember>;
  /** Estimates with their points inside (the spec's estimate_points), as the API returns them. */
  estimates: ByProject<Estimate>;
  cycles: ByProject<Cycle>;
  modules: ByProject<Module>;
  snapshots: { key: string; value: ProjectSnapshot };
  /** key/value: `version`, and `sync:<projectId>` → ProjectSyncRecord. */
  options: { key: string; value: { key: string; value: unknown } };
}

/** The metadata lists' rows as their stores hold them (stored with their project_id added). */
export type MetaRowTypes = {
  states: ProjectState;
  labels: ProjectLabel;
  members: ProjectMember;
  estimates: Estimate;
  cycles: Cycle;
  modules: Module;
};
export type MetaStoreName = keyof MetaRowTypes;
export const META_STORES: readonly MetaStoreName[] = ["states", "labels", "members", "estimates", "cycles", "modules"];
export const ALL_STORES = ["issues", "snapshots", ...META_STORES, "options"] as const;

export const syncKey = (projectId: string) => `sync:${projectId}`;

/** Where public/preload-local.js leaves the copy it read before the app loaded (lib/local-db/preload.ts). */
export const PRELOAD_GLOBAL = "__tidelineLocalPreload";

/** What public/preload-local.js read: one transaction of the project's sync record, snapshot and stored lists. */
export type PreloadedCopy = {
  dbName: string;
  projectId: string;
  /** options.version: a copy of another version is not used (the app clears it at open). */
  version: unknown;
  record: ProjectSyncRecord | null;
  snapshot: ProjectSnapshot | null;
  /** The lists stored for the project (those whose `meta:` mark is there), in key order. */
  lists: Partial<Record<MetaStoreName, unknown[]>>;
};
