/**
 * The query strings of the two search calls, read as the reference's client sends them
 * (apps/web workspace.service.ts searchWorkspace / searchEntity). A value the server cannot use
 * is a 400 naming the parameter; nothing here touches the database.
 */
import { badRequest } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { SEARCH_TEXT_MAX } from "./terms.ts";

/** The groups of GET search/, in the reference's order (product-domain §3 "Search results groups"). */
export const SEARCH_GROUPS = ["workspace", "project", "issue", "cycle", "module", "issue_view", "page"] as const;
export type SearchGroup = (typeof SEARCH_GROUPS)[number];

/** What GET entity-search/ can look for (the reference's TSearchEntities). */
export const ENTITY_TYPES = ["user_mention", "project", "issue", "cycle", "module", "page"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** product-domain §9 "search default page 30": each group holds at most this many results. */
export const SEARCH_PAGE_SIZE = 30;
/** entity-search's `count` when none is sent (the reference's default), and its ceiling. */
export const ENTITY_COUNT_DEFAULT = 5;
export const ENTITY_COUNT_MAX = 100;

type Query = Record<string, unknown>;

/** The last value of a repeated parameter, as the reference's server reads it. */
function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return value === undefined || value === null ? undefined : String(value);
}

function text(query: Query, key: string): string {
  const value = (single(query[key]) ?? "").trim();
  if (value.length > SEARCH_TEXT_MAX) {
    throw badRequest(`${key} must be at most ${SEARCH_TEXT_MAX} characters`, {
      [key]: [`At most ${SEARCH_TEXT_MAX} characters`],
    });
  }
  return value;
}

function optionalId(query: Query, key: string): string | null {
  const value = single(query[key]);
  if (value === undefined || value === "" || value === "null" || value === "undefined") return null;
  if (!isUuid(value)) throw badRequest(`${key} must be an id`, { [key]: ["Expected an id"] });
  return value;
}

export type SearchQuery = {
  search: string;
  /** Only this project's objects (workspace_search=false with a project_id), else null. */
  projectId: string | null;
  groups: SearchGroup[];
};

/**
 * GET search/: `search`, `workspace_search` (true / false, default false as the reference),
 * `project_id` (read only when workspace_search is false), `entities` (comma-separated groups;
 * names this server does not have are skipped, as the reference skips them).
 */
export function parseSearchQuery(query: Query): SearchQuery {
  const search = text(query, "search");
  const workspaceSearch = single(query.workspace_search) ?? "false";
  if (workspaceSearch !== "true" && workspaceSearch !== "false") {
    throw badRequest("workspace_search must be true or false", { workspace_search: ["Expected true or false"] });
  }
  const projectId = optionalId(query, "project_id");
  const entities = single(query.entities);
  const groups = entities
    ? SEARCH_GROUPS.filter((g) =>
        entities
          .split(",")
          .map((e) => e.trim())
          .includes(g),
      )
    : [...SEARCH_GROUPS];
  return { search, projectId: workspaceSearch === "false" ? projectId : null, groups };
}

export type EntitySearchQuery = {
  query: string;
  types: EntityType[];
  count: number;
  projectId: string | null;
};

/**
 * GET entity-search/: `query`, `query_type` (comma-joined; default user_mention), `count`
 * (default 5, at most 100), `project_id`. The reference's `issue_id` and `team_id` are read by
 * nothing on its server either (teamspaces do not exist here): they are ignored.
 */
export function parseEntitySearchQuery(query: Query): EntitySearchQuery {
  const raw = (single(query.query_type) ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = raw.filter((t) => !(ENTITY_TYPES as readonly string[]).includes(t));
  if (unknown.length) {
    throw badRequest(`Unknown query_type: ${unknown.join(", ")}. Expected one of ${ENTITY_TYPES.join(", ")}`, {
      query_type: [`Expected one of ${ENTITY_TYPES.join(", ")}`],
    });
  }
  const types = raw.length ? [...new Set(raw as EntityType[])] : (["user_mention"] as EntityType[]);
  const countRaw = single(query.count);
  let count = ENTITY_COUNT_DEFAULT;
  if (countRaw !== undefined && countRaw !== "") {
    const n = Number(countRaw);
    if (!Number.isInteger(n) || n < 0) {
      throw badRequest("count must be a whole number", { count: ["Expected a whole number"] });
    }
    count = Math.min(n, ENTITY_COUNT_MAX);
  }
  return { query: text(query, "query"), types, count, projectId: optionalId(query, "project_id") };
}
