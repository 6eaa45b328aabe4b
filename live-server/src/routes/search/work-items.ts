/**
 * Ranked work-item search over a whole workspace (or one project), for GET search/ and the
 * issue picker of GET entity-search/.
 *
 * What matches, each through its own index (migrations 0018–0021; README.md):
 *   1 key       `WEB-12`, `web-12`, `#12`, `12`       issues_project_sequence_key
 *   2 prefix    the name starts with the text          issues_ws_lower_name_idx (btree, lower(name))
 *   3 words     every word in the name (stemmed)       issues_name_fts_idx (GIN tsvector)
 *   4 contains  the text inside the name               issues_name_trgm_idx (GIN trigrams)
 *   5 text      every word in the description          issue_search_texts (GIN)
 *   6 comment   every word in one of its comments      issue_comments.comment_tsv (GIN)
 *   7 typo      each word close to a word of the name  issues_name_trgm_idx (pg_trgm `<%`)
 * Each kind is read with its own LIMIT (twice the page), narrowed to what the caller may see, so a
 * word found in 40,000 descriptions costs a few hundred rows, never the whole table. Typo
 * matches (7) are looked for only when 1–6 filled less than the page: comparing trigrams is the
 * one check PostgreSQL cannot answer from the index alone.
 *
 * Rank, best first: a key (100), the whole name (50), a name prefix (20), all words in the
 * name (10), a substring of the name (5), the description (2), a comment (1); ties by how close
 * the name is to the text (word_similarity + similarity, 0–2), then the most recently updated.
 *
 * Who sees what: each kind is narrowed to the projects in sight (sight.ts: member of, not
 * archived; a restricted guest's own items there), and nothing deleted, drafted, in intake or
 * archived; the rows found then pass the work-item lists' own predicate (issues/visibility.ts
 * itemVisibleTo, archived projects left out) before anything is answered.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, queryRows } from "../../db/client.ts";
import { itemVisibleTo } from "../issues/visibility.ts";
import { anyOf, projectIds, type Sight } from "./sight.ts";
import type { SearchTerms } from "./terms.ts";

export type WorkItemHit = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project__identifier: string;
  priority: string;
  state_id: string | null;
  score: number;
};

// Kinds of match, written into the SQL as constants.
const KEY = sql.raw("1");
const PREFIX = sql.raw("2");
const WORDS = sql.raw("3");
const CONTAINS = sql.raw("4");
const TEXT = sql.raw("5");
const COMMENT = sql.raw("6");

/**
 * What narrows each kind of match (alias `i`): the projects in sight, a restricted guest's own
 * items there, nothing deleted, drafted, in intake or archived — the lists' rule, spelled so each
 * index scan stays a plain one (sight.ts).
 */
function narrowed(sight: Sight): SQL {
  const all = sight.projects.filter((p) => !p.own_only).map((p) => p.id);
  const own = sight.projects.filter((p) => p.own_only).map((p) => p.id);
  const projects = own.length
    ? sql`(${anyOf(sql`i.project_id`, all)} or (${anyOf(sql`i.project_id`, own)} and i.created_by = ${sight.userId}::uuid))`
    : anyOf(sql`i.project_id`, all);
  return sql`${projects} and i.deleted_at is null and not i.is_draft and not i.in_intake and i.archived_at is null`;
}

/** What decides, on the rows found: the work-item lists' own predicate, and not archived. */
const visible = (sight: Sight) =>
  sql`i.archived_at is null and ${itemVisibleTo("i", sight.userId, { activeProjectsOnly: true })}`;

const tsquery = (terms: SearchTerms) => sql`websearch_to_tsquery('english', ${terms.text})`;

/** Closeness of the name to the text, 0–2: ranks within a kind, and typo matches. */
const closeness = (terms: SearchTerms) =>
  sql`(word_similarity(${terms.text}, i.name) + similarity(${terms.text}, i.name))`;

const COLUMNS = sql`i.id, i.name, i.sequence_id, i.project_id, i.priority, i.state_id`;

/** The project's identifier, from the projects in sight (a join would cost planning time). */
const withIdentifiers = (sight: Sight, rows: Omit<WorkItemHit, "project__identifier">[]): WorkItemHit[] =>
  rows.map((r) => ({ ...r, project__identifier: sight.byId.get(r.project_id)?.identifier ?? "" }));

/** The best `limit` work items for the text, best first. */
export async function searchWorkItems(db: Db, sight: Sight, terms: SearchTerms, limit: number): Promise<WorkItemHit[]> {
  if (limit <= 0 || sight.projects.length === 0) return [];
  const perKind = Math.max(limit * 2, 20);
  const ws = sql`i.workspace_id = ${sight.workspaceId}::uuid`;
  const where = sql`${ws} and ${narrowed(sight)}`;
  const kinds: SQL[] = [];
  if (terms.key) {
    const identifier = terms.key.identifier;
    const keyed = sight.projects.filter((p) => !identifier || p.identifier === identifier).map((p) => p.id);
    kinds.push(sql`(select i.id, ${KEY} from issues i
      where ${anyOf(sql`i.project_id`, keyed)} and i.sequence_id = ${terms.key.sequence} and ${where} limit ${perKind})`);
  }
  kinds.push(sql`(select i.id, ${PREFIX} from issues i
    where ${ws} and lower(i.name) like ${terms.prefix} and ${narrowed(sight)}
    order by lower(i.name) using ~<~ limit ${perKind})`);
  kinds.push(sql`(select i.id, ${WORDS} from issues i
    where to_tsvector('english', i.name) @@ ${tsquery(terms)} and ${where} limit ${perKind})`);
  if (terms.contains) {
    kinds.push(sql`(select i.id, ${CONTAINS} from issues i
      where i.name ilike ${terms.contains} and ${where} limit ${perKind})`);
  }
  kinds.push(sql`(select s.issue_id, ${TEXT} from issue_search_texts s join issues i on i.id = s.issue_id
    where s.description_tsv @@ ${tsquery(terms)} and s.workspace_id = ${sight.workspaceId}::uuid and ${where}
    limit ${perKind})`);
  kinds.push(sql`(select c.issue_id, ${COMMENT} from issue_comments c join issues i on i.id = c.issue_id
    where c.comment_tsv @@ ${tsquery(terms)} and c.workspace_id = ${sight.workspaceId}::uuid and ${where}
    limit ${perKind})`);

  const flag = (kind: SQL, points: number) =>
    sql`case when bool_or(kind = ${kind}) then ${sql.raw(String(points))} else 0 end`;
  const found = withIdentifiers(
    sight,
    await queryRows<Omit<WorkItemHit, "project__identifier">>(
      db,
      sql`with hit(id, kind) as (${sql.join(kinds, sql` union all `)}),
      ranked as (select id, ${flag(KEY, 100)} + ${flag(PREFIX, 20)} + ${flag(WORDS, 10)} + ${flag(CONTAINS, 5)}
          + ${flag(TEXT, 2)} + ${flag(COMMENT, 1)} as points
        from hit group by id)
      select ${COLUMNS},
        (r.points + case when lower(i.name) = lower(${terms.text}) then 50 else 0 end + ${closeness(terms)})::float8 as score
      from ranked r join issues i on i.id = r.id
      where ${visible(sight)}
      order by score desc, i.updated_at desc, i.id
      limit ${limit}`,
    ),
  );
  if (found.length >= limit || terms.fuzzyWords.length === 0) return found;
  return [...found, ...(await typoMatches(db, sight, terms, limit - found.length, found))];
}

/**
 * Names each of whose words is close to one of the text's words (pg_trgm word similarity): the
 * first `2 × limit` found through the trigram index, ranked by closeness.
 *
 * The plan is pinned to that index (bitmap scans only, for this one statement). Left free, the
 * planner weighs the trigram index against reading the table until the inner LIMIT is reached,
 * and its guess of how many names match `<%` comes from ANALYZE's sample of 100 names: for a
 * word in 119 names of 50,000 it guessed anything from 5 to 1,010, and from about 2,000 the
 * table read looks cheaper — then it compares every name until 60 match, 72–89 ms instead of
 * 4 (bench/results/issue-19/README.md). With the setting off it also took the workspace index
 * in name order, the same read. Bitmap scans only: 3–12 ms, whatever ANALYZE drew.
 */
async function typoMatches(
  db: Db,
  sight: Sight,
  terms: SearchTerms,
  limit: number,
  found: WorkItemHit[],
): Promise<WorkItemHit[]> {
  const close = sql.join(
    terms.fuzzyWords.map((word) => sql`${word} <% i.name`),
    sql` and `,
  );
  const seen = found.length
    ? sql` and i.id not in (${sql.join(
        found.map((f) => sql`${f.id}::uuid`),
        sql`, `,
      )})`
    : sql``;
  const rows = await db.transaction(async (tx) => {
    // Transaction-local (`is_local` true): gone at this transaction's end.
    await tx.execute(
      sql`select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`,
    );
    return queryRows<Omit<WorkItemHit, "project__identifier">>(
      tx,
      sql`select * from (
          select ${COLUMNS}, ${closeness(terms)}::float8 as score
          from issues i
          where ${close} and i.workspace_id = ${sight.workspaceId}::uuid and ${narrowed(sight)} and ${visible(sight)}${seen}
          limit ${Math.max(limit * 2, 20)}) t
        order by score desc, id
        limit ${limit}`,
    );
  });
  return withIdentifiers(sight, rows);
}

/**
 * The newest `limit` work items the caller may see (entity-search with an empty query): per
 * project from its newest number down (the sequence index), then merged by creation time.
 */
export async function newestWorkItems(db: DbOrTx, sight: Sight, limit: number): Promise<WorkItemHit[]> {
  if (limit <= 0 || sight.projects.length === 0) return [];
  const rows = await queryRows<Omit<WorkItemHit, "project__identifier">>(
    db,
    sql`select n.* from unnest(${`{${projectIds(sight).join(",")}}`}::uuid[]) as p(id)
      cross join lateral (
        select ${COLUMNS}, 0::float8 as score, i.created_at from issues i
        where i.project_id = p.id and ${narrowed(sight)} and ${visible(sight)}
        order by i.sequence_id desc limit ${limit}) n
      order by n.created_at desc, n.id
      limit ${limit}`,
  );
  return withIdentifiers(sight, rows);
}
