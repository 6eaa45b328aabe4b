/**
 * The queries behind GET search/ and GET entity-search/, one per group, each scoped to the
 * caller's workspace and to what they may see (the same rules as the lists of each domain):
 * - workspaces: the caller's active memberships;
 * - projects: unarchived projects they are an active member of (entity-search also offers the
 *   public ones, which anyone in the workspace may open and join — projects/service.ts);
 * - work items: work-items.ts (the lists' own predicate, issues/visibility.ts);
 * - cycles, modules, views, pages: unarchived, in an unarchived project they are an active
 *   member of whose feature is switched on (sight.ts); views and pages public or their own
 *   (views/service inScope, pages/policy: a private page exists for its owner only); project
 *   views only — a workspace view has no project to open it in, as in the reference.
 * Names match by prefix, substring (trigram index) or, for each word of three letters or more,
 * by trigram word similarity (typos); page text by full-text search. Ranked best first: an exact
 * name, then a prefix, a substring, closeness; then the newest.
 */
import { NETWORK, PAGE_ACCESS } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { VIEW_ACCESS } from "../views/schema.ts";
import {
  presentCycleEntity,
  presentIssueEntity,
  presentIssueResult,
  presentModuleEntity,
  presentPageEntity,
  presentPageResult,
  presentProjectEntity,
  presentProjectObjectResult,
  presentProjectResult,
  presentWorkspaceResult,
} from "./presenter.ts";
import type { EntitySearchQuery, EntityType, SearchGroup, SearchQuery } from "./schema.ts";
import { SEARCH_PAGE_SIZE } from "./schema.ts";
import { anyOf, projectIds, projectsInSight, type Sight } from "./sight.ts";
import { type SearchTerms, searchTerms } from "./terms.ts";
import { newestWorkItems, searchWorkItems } from "./work-items.ts";

/** Each word of the text (three letters or more) close to a word of the name: pg_trgm `<%`. */
function fuzzy(column: SQL, terms: SearchTerms): SQL {
  return sql`(${sql.join(
    terms.fuzzyWords.map((word) => sql`${word} <% ${column}`),
    sql` and `,
  )})`;
}

/** The text's match on a name column: prefix, substring (or a word's prefix when short), and typo. */
function nameMatches(column: SQL, terms: SearchTerms, typos = true): SQL {
  // Each arm is one a trigram index answers (ILIKE, `<%`), so an OR of them stays an index scan.
  const parts = [sql`${column} ilike ${terms.prefix}`, sql`${column} ilike ${terms.contains ?? terms.wordPrefix}`];
  if (typos && terms.fuzzyWords.length) parts.push(fuzzy(column, terms));
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** How well a name matches: whole 50, prefix 20, substring 5, plus closeness 0–2. */
function nameScore(column: SQL, terms: SearchTerms): SQL {
  return sql`(case when lower(${column}) = lower(${terms.text}) then 50 when ${column} ilike ${terms.prefix} then 20
    when ${column} ilike ${terms.contains ?? terms.wordPrefix} then 5 else 0 end
    + word_similarity(${terms.text}, ${column}) + similarity(${terms.text}, ${column}))`;
}

/** `and <match>` and the rank to order by, or nothing and the newest first without a text. */
function matching(column: SQL, terms: SearchTerms | null, newest: SQL, extra?: { match: SQL; score: SQL }) {
  if (!terms) return { where: sql``, order: sql`${newest} desc` };
  const match = extra ? sql`(${nameMatches(column, terms)} or ${extra.match})` : nameMatches(column, terms);
  const score = extra ? sql`${nameScore(column, terms)} + ${extra.score}` : nameScore(column, terms);
  return { where: sql` and ${match}`, order: sql`${score} desc, ${newest} desc` };
}

/** Who searches where: the caller, their workspace's slug, and the projects in their sight. */
type Scope = { access: WorkspaceAccess; sight: Sight };

const slug = (scope: Scope) => scope.access.workspace.slug;

// ───────────────────────────── the groups ─────────────────────────────

export type WorkspaceHit = { name: string; id: string; slug: string };

function workspacesMatching(scope: Scope, terms: SearchTerms, limit: number): SQL {
  const m = matching(sql`w.name`, terms, sql`w.created_at`);
  return sql`select w.name, w.id, w.slug, row_number() over (order by ${m.order}, w.id) as _o from workspaces w
      join workspace_members wm on wm.workspace_id = w.id and wm.member_id = ${scope.access.user.id}::uuid
        and wm.is_active
      where true${m.where}
      order by ${m.order}, w.id limit ${limit}`;
}

export type ProjectHit = { name: string; id: string; identifier: string; logo_props: unknown; workspace__slug: string };

/**
 * Projects by name or identifier (never narrowed to a project, as the reference): the ones in
 * sight, or with `publicToo` also the public ones the caller has not joined.
 */
function projectsMatching(scope: Scope, terms: SearchTerms | null, limit: number, publicToo: boolean): SQL {
  const identifier = terms
    ? {
        match: sql`lower(p.identifier) like ${terms.prefix}`,
        score: sql`case when lower(p.identifier) = lower(${terms.text}) then 100
          when lower(p.identifier) like ${terms.prefix} then 20 else 0 end`,
      }
    : undefined;
  const m = matching(sql`p.name`, terms, sql`p.created_at`, identifier);
  const member = anyOf(sql`p.id`, projectIds(scope.sight, undefined, true));
  const seen = publicToo ? sql`(p.network = ${NETWORK.public} or ${member})` : member;
  return sql`select p.name, p.id, p.identifier, p.logo_props, ${slug(scope)}::text as workspace__slug,
        row_number() over (order by ${m.order}, p.id) as _o
      from projects p
      where p.workspace_id = ${scope.access.workspace.id}::uuid and p.archived_at is null and ${seen}${m.where}
      order by ${m.order}, p.id limit ${limit}`;
}

export type ProjectObjectHit = {
  name: string;
  id: string;
  project_id: string;
  project__identifier: string;
  workspace__slug: string;
  status: string;
  start_date: string | null;
  end_date: string | null;
  timezone: string;
};

/** Rows as the query gives them, their project's identifier and time zone taken from the sight. */
function withProject(scope: Scope, rows: unknown[] | undefined): ProjectObjectHit[] {
  return ((rows ?? []) as Omit<ProjectObjectHit, "project__identifier" | "timezone">[]).map((x) => {
    const project = scope.sight.byId.get(x.project_id);
    return { ...x, project__identifier: project?.identifier ?? "", timezone: project?.timezone ?? "UTC" };
  });
}

const OBJECTS = {
  cycle: { table: "cycles", feature: "cycle_view" },
  module: { table: "modules", feature: "module_view" },
  issue_view: { table: "issue_views", feature: "issue_views_view" },
} as const;

/** Cycles, modules or project views of the projects searched (extra columns for entity-search). */
function projectObjectsMatching(
  scope: Scope,
  kind: keyof typeof OBJECTS,
  terms: SearchTerms | null,
  limit: number,
): SQL {
  const { table, feature } = OBJECTS[kind];
  const m = matching(sql`x.name`, terms, sql`x.created_at`);
  const extra =
    kind === "cycle"
      ? sql`'' as status, to_char(x.start_date, 'YYYY-MM-DD') as start_date, to_char(x.end_date, 'YYYY-MM-DD') as end_date`
      : kind === "module"
        ? sql`x.status, null as start_date, null as end_date`
        : sql`'' as status, null as start_date, null as end_date`;
  const own =
    kind === "issue_view"
      ? sql` and (x.access = ${VIEW_ACCESS.public} or x.owned_by_id = ${scope.access.user.id}::uuid)`
      : sql``;
  return sql`select x.name, x.id, x.project_id, ${slug(scope)}::text as workspace__slug, ${extra},
        row_number() over (order by ${m.order}, x.id) as _o
      from ${sql.raw(table)} x
      where ${anyOf(sql`x.project_id`, projectIds(scope.sight, feature))} and x.archived_at is null${own}${m.where}
      order by ${m.order}, x.id limit ${limit}`;
}

/**
 * Several small groups in one statement, each an array in its own column: on PGlite every
 * statement is a trip to the database's thread and a plan of its own, a few ms each.
 */
async function together<K extends string>(db: DbOrTx, parts: Partial<Record<K, SQL>>): Promise<Record<K, unknown[]>> {
  const keys = (Object.keys(parts) as K[]).filter((k) => parts[k]);
  const columns = keys.map(
    (k) => sql`(select coalesce(json_agg(t order by t._o), '[]'::json) from (${parts[k]}) t) as ${sql.identifier(k)}`,
  );
  const [row] = await queryRows<Record<K, unknown[] | string>>(db, sql`select ${sql.join(columns, sql`, `)}`);
  return Object.fromEntries(
    keys.map((k) => {
      const value = row?.[k] ?? [];
      return [k, typeof value === "string" ? (JSON.parse(value) as unknown[]) : value];
    }),
  ) as Record<K, unknown[]>;
}

/** One group alone (entity-search asks for one or two). */
const alone = async <T>(db: DbOrTx, query: SQL) => (await together(db, { rows: query })).rows as T[];

export type PageHit = {
  name: string;
  id: string;
  logo_props: unknown;
  project_ids: string[];
  project_identifiers: string[];
  workspace__slug: string;
};

/**
 * Pages by name or text (the stored words of name and plain text). `publicOnly`: entity-search's
 * picker offers public pages only, as the reference (a link to a private page is dead for
 * everyone else). Name and text matches are read apart, each through its index with its own
 * LIMIT; `project_ids` are all of the page's projects in sight, as the reference lists them.
 */
async function pagesMatching(db: DbOrTx, scope: Scope, terms: SearchTerms | null, limit: number, publicOnly: boolean) {
  const readable = publicOnly
    ? sql`pg.access = ${PAGE_ACCESS.public}`
    : sql`(pg.access = ${PAGE_ACCESS.public} or pg.owned_by_id = ${scope.access.user.id}::uuid)`;
  const visible = sql`pg.workspace_id = ${scope.access.workspace.id}::uuid and pg.archived_at is null and ${readable}
    and exists (select 1 from page_projects pp
      where pp.page_id = pg.id and ${anyOf(sql`pp.project_id`, projectIds(scope.sight, "page_view"))})`;
  const perKind = Math.max(limit * 2, 20);
  if (!terms) {
    return pagesOf(
      db,
      scope,
      sql`select pg.id, 1 from pages pg where ${visible} order by pg.created_at desc limit ${limit}`,
      {
        order: sql`pg.created_at desc`,
        limit,
      },
    );
  }
  const order = sql`(${nameScore(sql`pg.name`, terms)} + case when r.in_text then 2 else 0 end) desc, pg.created_at desc`;
  const found = await pagesOf(
    db,
    scope,
    sql`(select pg.id, 1 from pages pg where ${nameMatches(sql`pg.name`, terms, false)} and ${visible} limit ${perKind})
      union all
      (select pg.id, 2 from page_search_texts s join pages pg on pg.id = s.page_id
        where s.text_tsv @@ websearch_to_tsquery('english', ${terms.text})
          and s.workspace_id = ${scope.access.workspace.id}::uuid and ${visible} limit ${perKind})`,
    { order, limit },
  );
  // Typos in names only when name and text found less than the page: a second statement, so
  // the common search never pays for planning trigram similarity (pg_trgm prices `<%` by
  // trying it on the column's statistics).
  if (found.length >= limit || !terms.fuzzyWords.length) return found;
  const seen = found.length
    ? sql` and not ${anyOf(
        sql`pg.id`,
        found.map((p) => p.id),
      )}`
    : sql``;
  const typos = await pagesOf(
    db,
    scope,
    sql`select pg.id, 3 from pages pg where ${fuzzy(sql`pg.name`, terms)} and ${visible}${seen} limit ${perKind}`,
    { order, limit: limit - found.length },
  );
  return [...found, ...typos];
}

/** The pages `hits` (id, kind — 2 for a text match) found, with their projects in sight, in `order`. */
async function pagesOf(db: DbOrTx, scope: Scope, hits: SQL, options: { order: SQL; limit: number }) {
  const rows = await queryRows<Omit<PageHit, "project_identifiers"> & { project_ids: string[] | string }>(
    db,
    sql`with hit(id, kind) as (${hits}),
      ranked as (select id, bool_or(kind = 2) as in_text from hit group by id)
      select pg.name, pg.id, pg.logo_props,
        array_agg(pp.project_id::text order by pp.created_at, pp.project_id) as project_ids,
        ${slug(scope)}::text as workspace__slug
      from ranked r join pages pg on pg.id = r.id
      join page_projects pp on pp.page_id = pg.id
        and ${anyOf(sql`pp.project_id`, projectIds(scope.sight, "page_view", true))}
      group by pg.id, r.in_text
      order by ${options.order}, pg.id limit ${options.limit}`,
  );
  return rows.map((r) => {
    const projectIdsOfPage = pgArray(r.project_ids);
    return {
      ...r,
      project_ids: projectIdsOfPage,
      project_identifiers: projectIdsOfPage.map((id) => scope.sight.byId.get(id)?.identifier ?? ""),
    };
  });
}

/** A text[] as the drivers give it: node-postgres parses it, PGlite too — or its literal. */
function pgArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  return inner ? inner.split(",").map((v) => v.replace(/^"|"$/g, "")) : [];
}

export type MemberHit = { member__avatar_url: string | null; member__display_name: string; member__id: string };

/** People to mention: the workspace's active members, or the project's (entity-search). */
async function membersMatching(
  db: DbOrTx,
  scope: Scope,
  projectId: string | null,
  terms: SearchTerms | null,
  limit: number,
) {
  const inProject = projectId
    ? sql` join project_members pm on pm.member_id = u.id and pm.project_id = ${projectId}::uuid and pm.is_active`
    : sql``;
  const since = projectId ? sql`pm.created_at` : sql`wm.created_at`;
  const pattern = terms ? `%${terms.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = pattern
    ? sql` and (u.display_name ilike ${pattern} or u.first_name ilike ${pattern} or u.last_name ilike ${pattern}
        or (u.first_name || ' ' || u.last_name) ilike ${pattern})`
    : sql``;
  const order = terms
    ? sql`case when lower(u.display_name) = lower(${terms.text}) then 3 when lower(u.display_name) like ${terms.prefix} then 2
        when lower(u.first_name) like ${terms.prefix} or lower(u.last_name) like ${terms.prefix} then 1 else 0 end desc,
        ${since} desc`
    : sql`${since} desc`;
  return queryRows<MemberHit>(
    db,
    sql`select u.avatar_url as member__avatar_url, u.display_name as member__display_name, u.id as member__id
      from workspace_members wm join users u on u.id = wm.member_id${inProject}
      where wm.workspace_id = ${scope.access.workspace.id}::uuid and wm.is_active and not u.is_bot and u.is_active${where}
      order by ${order}, u.id limit ${limit}`,
  );
}

// ───────────────────────────── the calls ─────────────────────────────

async function scopeOf(db: DbOrTx, access: WorkspaceAccess, projectId: string | null): Promise<Scope> {
  return { access, sight: await projectsInSight(db, access.workspace.id, access.user.id, projectId) };
}

/**
 * GET search/: every asked group, each at most SEARCH_PAGE_SIZE, best first. An empty text
 * answers every group empty (the reference's palette never sends one).
 */
export async function searchWorkspace(
  db: DbOrTx,
  access: WorkspaceAccess,
  query: SearchQuery,
): Promise<Partial<Record<SearchGroup, unknown[]>>> {
  const terms = query.search ? searchTerms(query.search) : null;
  if (!terms) return Object.fromEntries(query.groups.map((g) => [g, []]));
  const scope = await scopeOf(db, access, query.projectId);
  const n = SEARCH_PAGE_SIZE;
  const asked = new Set(query.groups);
  const small: Partial<Record<SearchGroup, SQL>> = {};
  if (asked.has("workspace")) small.workspace = workspacesMatching(scope, terms, n);
  if (asked.has("project")) small.project = projectsMatching(scope, terms, n, false);
  for (const kind of ["cycle", "module", "issue_view"] as const) {
    if (asked.has(kind)) small[kind] = projectObjectsMatching(scope, kind, terms, n);
  }
  const [rows, issues, pages] = await Promise.all([
    Object.keys(small).length ? together(db, small) : Promise.resolve({} as Partial<Record<SearchGroup, unknown[]>>),
    asked.has("issue") ? searchWorkItems(db, scope.sight, terms, n) : Promise.resolve([]),
    asked.has("page") ? pagesMatching(db, scope, terms, n, false) : Promise.resolve([]),
  ]);
  const shaped = (group: SearchGroup): unknown[] => {
    switch (group) {
      case "workspace":
        return (rows.workspace as WorkspaceHit[]).map(presentWorkspaceResult);
      case "project":
        return (rows.project as ProjectHit[]).map(presentProjectResult);
      case "issue":
        return issues.map((i) => presentIssueResult(i, slug(scope)));
      case "cycle":
      case "module":
      case "issue_view":
        return withProject(scope, rows[group]).map(presentProjectObjectResult);
      case "page":
        return pages.map(presentPageResult);
    }
  };
  return Object.fromEntries(query.groups.map((g) => [g, shaped(g)]));
}

/**
 * GET entity-search/: for each asked type, at most `count` results in the reference's
 * TSearchResponse shapes — best first for a text, the newest first without one.
 */
export async function searchEntities(
  db: DbOrTx,
  access: WorkspaceAccess,
  query: EntitySearchQuery,
): Promise<Partial<Record<EntityType, unknown[]>>> {
  const terms = query.query ? searchTerms(query.query) : null;
  const n = query.count;
  if (n === 0) return Object.fromEntries(query.types.map((t) => [t, []]));
  const scope = await scopeOf(db, access, query.projectId);
  const run = async (type: EntityType): Promise<unknown[]> => {
    switch (type) {
      case "user_mention":
        return membersMatching(db, scope, query.projectId, terms, n);
      case "project":
        return (await alone<ProjectHit>(db, projectsMatching(scope, terms, n, true))).map(presentProjectEntity);
      case "issue": {
        const rows = terms
          ? await searchWorkItems(db, scope.sight, terms, n)
          : await newestWorkItems(db, scope.sight, n);
        return rows.map(presentIssueEntity);
      }
      case "cycle":
        return withProject(scope, await alone(db, projectObjectsMatching(scope, "cycle", terms, n))).map(
          presentCycleEntity,
        );
      case "module":
        return withProject(scope, await alone(db, projectObjectsMatching(scope, "module", terms, n))).map(
          presentModuleEntity,
        );
      case "page":
        return (await pagesMatching(db, scope, terms, n, true)).map((p) => presentPageEntity(p, query.projectId));
    }
  };
  const answers = await Promise.all(query.types.map(run));
  return Object.fromEntries(query.types.map((t, i) => [t, answers[i]]));
}
