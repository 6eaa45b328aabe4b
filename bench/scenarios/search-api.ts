/**
 * Scenario — the workspace search (issue 19: "under 50 ms for a workspace with 50,000 work
 * items"). Seeds `--items` work items over `--projects` projects (names, descriptions and
 * comments from a vocabulary with a frequent head and a long tail; lib/seed-search.ts), pages,
 * cycles and modules, then asks GET search/ — what the command palette sends — one request at
 * a time, `--samples` times per query after a warm-up: a frequent word, a mid word, two words, a
 * rare word, a work-item key (upper and lower case), a bare number, a typo, a word being typed.
 * Also the issue picker of entity-search/. Figures: median and p99 per query (ms, measured by
 * the client: HTTP and JSON included); notes: how many work items each answer held.
 */

import { figures, median, numberFlag, percentile, type Scenario } from "../lib/scenario.ts";
import { SEARCH_WORDS, searchVocabulary, seedSearchWorkspace } from "../lib/seed-search.ts";
import { createStore, startServer } from "../lib/server.ts";
import { ApiClient, mapLimit, setupFixture } from "../lib/setup.ts";

const EXTRA_PROJECTS = [
  { name: "Web", identifier: "WEB" },
  { name: "Platform API", identifier: "API" },
  { name: "Mobile", identifier: "MOB" },
  { name: "Operations", identifier: "OPS" },
  { name: "Docs", identifier: "DOCS" },
  { name: "Design", identifier: "DSGN" },
  { name: "Data", identifier: "DATA" },
  { name: "Security", identifier: "SEC" },
  { name: "Growth", identifier: "GRW" },
];

type SearchAnswer = { results: Record<string, unknown[]> };

export const scenario: Scenario = {
  id: "search-api",
  title: "Workspace search: GET search/ over 50,000 work items, one request at a time",
  defaults: { items: 50_000, projects: 5, samples: 200, pages: 1000, port: 3431 },
  async run(ctx) {
    const fig = figures("search-api", ctx);
    const items = numberFlag(ctx, "items", 50_000);
    const projectCount = Math.min(Math.max(numberFlag(ctx, "projects", 5), 1), EXTRA_PROJECTS.length + 1);
    const samples = Math.max(numberFlag(ctx, "samples", 200), 1);
    const port = numberFlag(ctx, "port", 3431);

    const store = await createStore(ctx, "search-api");
    let server = await startServer(ctx, { port, store });
    const fixture = await setupFixture(server.url, { log: ctx.log });
    const api = fixture.admin.api;
    const base = `/api/workspaces/${fixture.workspace.slug}`;
    const projects = [{ id: fixture.project.id, identifier: fixture.project.identifier }];
    for (const p of EXTRA_PROJECTS.slice(0, projectCount - 1)) {
      projects.push(await api.post<{ id: string; identifier: string }>(`${base}/projects/`, p));
    }
    const seeded = await mapLimit(projects, 2, async (p) => {
      const answer = await api.get<{ id: string; group: string }[] | { results: { id: string; group: string }[] }>(
        `${base}/projects/${p.id}/states/`,
      );
      return { id: p.id, states: Array.isArray(answer) ? answer : answer.results };
    });
    await server.stop();

    const database = await store.open();
    let seed: { ms: number; comments: number };
    try {
      seed = await seedSearchWorkspace(database.db, {
        workspaceId: fixture.workspace.id,
        projects: seeded,
        items,
        commentShare: 0.3,
        pages: numberFlag(ctx, "pages", 1000),
        cyclesPerProject: 20,
        modulesPerProject: 20,
        creatorId: fixture.admin.id,
      });
    } finally {
      await database.close();
    }
    ctx.log(`seeded ${items} work items (${seed.comments} comments) in ${Math.round(seed.ms)} ms`);
    server = await startServer(ctx, { port, store });
    // The admin's session is in the database: the same cookie works on the restarted server.
    const client = new ApiClient(server.url, api.forwardedFor);
    for (const [k, v] of api.cookies) client.cookies.set(k, v);

    const vocabulary = searchVocabulary();
    const key = projects[1] ?? projects[0];
    const keyNumber = Math.max(1, Math.floor(items / projectCount / 2));
    const queries: { label: string; text: string; path?: string }[] = [
      { label: "frequent word", text: SEARCH_WORDS[0] as string },
      { label: "word", text: SEARCH_WORDS[40] as string },
      { label: "two words", text: `${SEARCH_WORDS[12]} ${SEARCH_WORDS[3]}` },
      { label: "rare word", text: vocabulary[SEARCH_WORDS.length + 1500] as string },
      { label: "key", text: `${key?.identifier}-${keyNumber}` },
      { label: "key, lower case", text: `${key?.identifier.toLowerCase()}-${keyNumber}` },
      { label: "bare number", text: String(keyNumber + 7) },
      { label: "typo", text: "authentcation" },
      { label: "word being typed", text: "notif" },
      {
        label: "entity-search issue picker",
        text: SEARCH_WORDS[5] as string,
        path: `${base}/entity-search/?query_type=issue&count=10&query=${SEARCH_WORDS[5]}`,
      },
    ];

    const out = [];
    for (const q of queries) {
      const path = q.path ?? `${base}/search/?${new URLSearchParams({ search: q.text, workspace_search: "true" })}`;
      let last: SearchAnswer | Record<string, unknown[]> = { results: {} };
      for (let i = 0; i < 5; i++) last = await client.get(path); // warm-up: JIT, plans, buffers
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        last = await client.get(path);
        times.push(performance.now() - started);
      }
      const groups = "results" in last ? (last as SearchAnswer).results : (last as Record<string, unknown[]>);
      const hits = (groups.issue ?? []).length;
      const first = (groups.issue?.[0] as { project__identifier?: string; sequence_id?: number; name?: string }) ?? {};
      const note = `"${q.text}": ${hits} work items${hits ? `, first ${first.project__identifier}-${first.sequence_id} "${first.name}"` : ""}`;
      ctx.log(
        `${q.label}: median ${median(times).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms — ${note}`,
      );
      out.push(
        fig(`${q.label}: median`, median(times), "ms", note),
        fig(`${q.label}: p99`, percentile(times, 99), "ms"),
      );
    }
    out.push(
      fig("seed", seed.ms, "ms", `${items} work items over ${projectCount} projects, ${seed.comments} comments`),
    );

    await server.stop();
    await store.dispose();
    return out;
  },
};
