/**
 * A workspace worth searching: work items spread over several projects, with names,
 * descriptions and comments drawn from one vocabulary (a few hundred product words, then a long
 * tail of made-up words) so that some words are everywhere and most are rare, as in a real
 * tracker; plus pages with text, cycles and modules. Batched multi-row inserts straight into the
 * server's database (stop the server first on PGlite), numbers gap-free per project.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../live-server/src/db/client.ts";
import { cycles, issueComments, issues, modules, pageProjects, pages } from "../../live-server/src/db/schema.ts";
import { prng } from "./random.ts";

/** Product words, most frequent first (the head of the distribution). */
export const SEARCH_WORDS = (
  "login session password account user settings board issue project sync export import report page view " +
  "filter search label state cycle module member invite notification email comment upload download mobile " +
  "desktop editor mention timeline calendar kanban spreadsheet dashboard chart analytics billing invoice plan " +
  "payment webhook token api server client cache offline socket timeout crash error slow memory leak " +
  "performance regression flaky test build deploy release migration database index query permission role " +
  "guest admin workspace sidebar header footer modal dialog tooltip menu button input form validation theme " +
  "dark light keyboard shortcut drag drop scroll layout responsive tablet browser safari firefox chrome " +
  "android ios push reminder schedule recurring archive restore delete duplicate template estimate priority " +
  "assignee subscriber attachment image video preview thumbnail avatar profile onboarding signup signin " +
  "authentication authorization audit history activity feed digest summary backlog sprint roadmap milestone " +
  "epic story task bug feature improvement refactor documentation translation locale timezone currency " +
  "accessibility contrast focus screenreader animation transition loading spinner skeleton empty pagination"
).split(" ");

const VERBS = ["Fix", "Add", "Refactor", "Document", "Investigate", "Ship", "Review", "Polish", "Migrate", "Test"];
const SYLLABLES = ["ka", "lo", "mi", "ner", "tos", "van", "qui", "dre", "sul", "pha", "tor", "zen", "bri", "cal"];
const TAIL_WORDS = 3000;

/** The vocabulary: the product words, then made-up words for the long tail. */
export function searchVocabulary(seed = 7): string[] {
  const random = prng(seed);
  const words = [...SEARCH_WORDS];
  const seen = new Set(words);
  while (words.length < SEARCH_WORDS.length + TAIL_WORDS) {
    // Three or four syllables: 14³ + 14⁴ words to draw from, far more than the tail needs.
    const length = random() < 0.5 ? 3 : 4;
    const word = Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** Half the draws Zipf-like (rank r with probability ∝ 1/r), half uniform: a head and a long tail. */
function wordPicker(vocabulary: readonly string[], random: () => number): () => string {
  const n = vocabulary.length;
  return () => {
    const rank = random() < 0.5 ? Math.floor(Math.exp(random() * Math.log(n + 1))) - 1 : Math.floor(random() * n);
    return vocabulary[Math.min(Math.max(rank, 0), n - 1)] as string;
  };
}

export type SearchSeedProject = { id: string; states: { id: string; group: string }[] };

export type SearchSeedSpec = {
  workspaceId: string;
  projects: SearchSeedProject[];
  /** Work items in all, spread evenly over the projects. */
  items: number;
  /** Share of items with one or two comments. */
  commentShare: number;
  pages: number;
  /** Cycles and modules per project. */
  cyclesPerProject: number;
  modulesPerProject: number;
  creatorId: string;
  seed?: number;
};

export type SearchSeedResult = { ms: number; comments: number };

const BATCH = 500;

/** Insert the workspace's searchable content in one transaction per kind. */
export async function seedSearchWorkspace(db: Database["db"], spec: SearchSeedSpec): Promise<SearchSeedResult> {
  const started = performance.now();
  const random = prng(spec.seed ?? 19);
  const word = wordPicker(searchVocabulary(), random);
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, word).join(" ");
  const now = Date.now();
  let comments = 0;

  const perProject = Math.ceil(spec.items / spec.projects.length);
  for (const [p, project] of spec.projects.entries()) {
    const count = Math.min(perProject, spec.items - p * perProject);
    if (count <= 0) break;
    await db.transaction(async (tx) => {
      const bumped = (await tx.execute(
        sql`update projects set last_sequence_id = last_sequence_id + ${count} where id = ${project.id} returning last_sequence_id`,
      )) as unknown as { rows: { last_sequence_id: number }[] };
      const first = Number(bumped.rows[0]?.last_sequence_id) - count + 1;
      for (let start = 0; start < count; start += BATCH) {
        const issueRows: (typeof issues.$inferInsert)[] = [];
        const commentRows: (typeof issueComments.$inferInsert)[] = [];
        for (let i = start; i < Math.min(start + BATCH, count); i++) {
          const id = crypto.randomUUID();
          const state = project.states[Math.floor(random() * project.states.length)];
          const created = new Date(now - (count - i) * 60_000);
          const name = `${VERBS[Math.floor(random() * VERBS.length)]} ${words(2, 6)}`;
          const text = random() < 0.7 ? words(15, 120) : "";
          issueRows.push({
            id,
            workspaceId: spec.workspaceId,
            projectId: project.id,
            sequenceId: first + i,
            name,
            descriptionHtml: text ? `<p>${text}</p>` : "<p></p>",
            descriptionStripped: text,
            stateId: state?.id ?? null,
            sortOrder: 65535 + i * 10000,
            completedAt: state?.group === "completed" ? created : null,
            createdAt: created,
            updatedAt: created,
            createdById: spec.creatorId,
            updatedById: spec.creatorId,
          });
          if (random() < spec.commentShare) {
            for (let c = random() < 0.5 ? 1 : 2; c > 0; c--) {
              const body = words(5, 40);
              commentRows.push({
                workspaceId: spec.workspaceId,
                projectId: project.id,
                issueId: id,
                actorId: spec.creatorId,
                commentHtml: `<p>${body}</p>`,
                commentStripped: body,
                createdAt: created,
                updatedAt: created,
                createdById: spec.creatorId,
              });
            }
          }
        }
        await tx.insert(issues).values(issueRows);
        if (commentRows.length) await tx.insert(issueComments).values(commentRows);
        comments += commentRows.length;
      }
    });
  }

  await db.transaction(async (tx) => {
    for (const project of spec.projects) {
      const cycleRows = Array.from({ length: spec.cyclesPerProject }, (_, i) => ({
        workspaceId: spec.workspaceId,
        projectId: project.id,
        name: `Sprint ${i + 1} ${words(1, 2)}`,
        createdById: spec.creatorId,
      }));
      if (cycleRows.length) await tx.insert(cycles).values(cycleRows);
      const moduleRows = Array.from({ length: spec.modulesPerProject }, (_, i) => ({
        workspaceId: spec.workspaceId,
        projectId: project.id,
        name: `${words(1, 3)} ${i + 1}`,
        createdById: spec.creatorId,
      }));
      if (moduleRows.length) await tx.insert(modules).values(moduleRows);
    }
    for (let start = 0; start < spec.pages; start += BATCH) {
      const pageRows: (typeof pages.$inferInsert)[] = [];
      const links: (typeof pageProjects.$inferInsert)[] = [];
      for (let i = start; i < Math.min(start + BATCH, spec.pages); i++) {
        const id = crypto.randomUUID();
        const text = words(50, 400);
        pageRows.push({
          id,
          workspaceId: spec.workspaceId,
          ownedById: spec.creatorId,
          name: words(1, 4),
          descriptionHtml: `<p>${text}</p>`,
          descriptionStripped: text,
          createdById: spec.creatorId,
        });
        const project = spec.projects[i % spec.projects.length] as SearchSeedProject;
        links.push({ pageId: id, projectId: project.id, workspaceId: spec.workspaceId, createdById: spec.creatorId });
      }
      await tx.insert(pages).values(pageRows);
      await tx.insert(pageProjects).values(links);
    }
  });
  // Fresh planner statistics, as autovacuum would have after a real load.
  await db.execute(sql`analyze`);
  return { ms: performance.now() - started, comments };
}
