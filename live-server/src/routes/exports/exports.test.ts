import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NETWORK, ROLE } from "@tideline/shared";
import { count, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createTestDatabase, ORIGIN, type TestApp } from "../../../test/harness.ts";
import { buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { exporterHistory, issues, jobs, workspaceMembers } from "../../db/schema.ts";
import { createStorage } from "../../storage/index.ts";
import {
  anotherProject,
  createFixture,
  createIssue,
  createLabel,
  eventsOf,
  type Fixture,
} from "../issues/test-support.ts";
import { createProject } from "../projects/test-support.ts";
import { runExport } from "./job.ts";
import { type ExportDeps, expireExports } from "./service.ts";

let t: TestApp;
let f: Fixture;
let ws: string;
let deps: ExportDeps;
const INJECTION = '=HYPERLINK("http://x","y")';

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  ws = `/api/workspaces/${f.w.slug}`;
  deps = { db: t.db, events: t.app.ctx.events, jobs: t.app.ctx.jobs, storage: createStorage(t.app.ctx.config) };
  const label = await createLabel(t, f.project.id, "Bug");
  await createIssue(t, f.w.admin, f.project.url, {
    name: INJECTION,
    description_html: "<p>Steps <strong>to</strong> reproduce</p>",
    priority: "high",
    assignee_ids: [f.w.member.id],
    label_ids: [label],
    start_date: "2026-01-05",
    target_date: "2026-01-09",
  });
  await createIssue(t, f.w.member, f.project.url, { name: "+1 from the member" });
  // Left out: archived, draft, deleted items, and a private project the admin is not in.
  const archived = await createIssue(t, f.w.admin, f.project.url, { name: "Archived item" });
  await t.db.update(issues).set({ archivedAt: new Date() }).where(eq(issues.id, archived.id));
  const deleted = await createIssue(t, f.w.admin, f.project.url, { name: "Deleted item" });
  await t.db.update(issues).set({ deletedAt: new Date() }).where(eq(issues.id, deleted.id));
  const draft = await createIssue(t, f.w.admin, f.project.url, { name: "Draft item" });
  await t.db.update(issues).set({ isDraft: true }).where(eq(issues.id, draft.id));
  const secret = await createProject(t, f.w.member, f.w.slug, { network: NETWORK.private });
  await createIssue(t, f.w.member, `${ws}/projects/${secret.id}`, { name: "Secret plan" });
});
afterAll(() => t.close());

type View = {
  id: string;
  status: string;
  url: string | null;
  provider: string;
  progress: number;
  project: string[];
  is_expired: boolean;
  exported_items: number;
  total_items: number | null;
  file_name: string | null;
  initiated_by_detail: { id: string } | null;
};

/** Export as the admin and wait for the job to finish. */
async function exportAs(provider: string, body: Record<string, unknown> = {}): Promise<View> {
  const res = await client(t.app, f.w.admin).post(`${ws}/export-issues/`, { provider, ...body });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().message).toBe("Once the export is ready you will be able to download it");
  const id = res.json().export.id as string;
  await t.app.ctx.jobs.kick();
  const list = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=50&cursor=50:0:0`);
  const view = (list.json().results as View[]).find((e) => e.id === id);
  if (!view) throw new Error("export not listed");
  return view;
}

async function download(view: View) {
  expect(view.url).toBeTruthy();
  const res = await client(t.app, f.w.admin).get(view.url as string);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const countRows = async () => {
  const [history] = await t.db.select({ n: count() }).from(exporterHistory);
  const [queued] = await t.db.select({ n: count() }).from(jobs).where(eq(jobs.kind, "export.issues"));
  return { history: history?.n, queued: queued?.n };
};

describe("POST export-issues/", () => {
  it("exports csv: the visible items, formula cells escaped, names not ids", async () => {
    const view = await exportAs("csv", { project: [f.project.id] });
    expect(view).toMatchObject({
      status: "completed",
      provider: "csv",
      progress: 100,
      project: [f.project.id],
      exported_items: 2,
      is_expired: false,
    });
    expect(view.initiated_by_detail?.id).toBe(f.w.admin.id);
    const res = await download(view);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename=".+\.csv"$/);
    const text = res.body.replace(/^\uFEFF/, "");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "ID,Project,Name,Description,State,Priority,Assignees,Labels,Cycle,Modules,Start date,Target date,Estimate," +
        "Created at,Created by,Updated at,Updated by,Completed at,Completed by",
    );
    expect(lines).toHaveLength(3);
    const first = lines.find((l) => l.startsWith(`${f.project.identifier}-1,`));
    expect(first).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(first).toContain("Steps to reproduce");
    expect(first).toContain(",high,");
    expect(first).toContain(f.w.member.displayName);
    expect(first).toContain(",Bug,");
    expect(first).toContain("2026-01-05,2026-01-09");
    expect(first).toContain(f.w.admin.displayName);
    expect(lines.find((l) => l.includes("from the member"))).toContain("'+1 from the member");
    expect(text).not.toMatch(/Archived item|Deleted item|Draft item|Secret plan/);
  });

  it("exports xlsx: read back, the formula is text", async () => {
    const view = await exportAs("xlsx");
    expect(view.status).toBe("completed");
    const res = await download(view);
    expect(res.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    if (!sheet) throw new Error("no sheet");
    expect(sheet.getRow(1).getCell(1).value).toBe("ID");
    expect(sheet.getRow(1).getCell(3).value).toBe("Name");
    const names: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) names.push(row.getCell(3).value);
    });
    expect(names.sort()).toEqual([`'${INJECTION}`, "'+1 from the member"].sort());
    // A plain string cell: no formula anywhere.
    sheet.eachRow((row) => {
      row.eachCell((cell) => expect(cell.formula).toBeFalsy());
    });
  });

  it("exports json: an array of the columns, values as stored", async () => {
    const view = await exportAs("json", { project: [] });
    const res = await download(view);
    expect(res.headers["content-type"]).toContain("application/json");
    const rows = res.json() as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    const first = rows.find((r) => r.name === INJECTION);
    expect(first).toMatchObject({
      id: `${f.project.identifier}-1`,
      description: expect.stringContaining("Steps to reproduce"),
      priority: "high",
      assignees: f.w.member.displayName,
      labels: "Bug",
      cycle: null,
      start_date: "2026-01-05",
      target_date: "2026-01-09",
      created_by: f.w.admin.displayName,
      completed_at: null,
    });
    expect(Object.keys(first ?? {})).toContain("completed_by");
  });

  it("emits export.created and export.updated up to completed", async () => {
    const view = await exportAs("csv");
    expect(eventsOf(f, "export.created", view.id)).toHaveLength(1);
    const updates = eventsOf(f, "export.updated", view.id).map((e) => e.data.status);
    expect(updates[0]).toBe("processing");
    expect(updates.at(-1)).toBe("completed");
    expect(eventsOf(f, "export.created", view.id)[0]).toMatchObject({
      workspace_id: f.w.workspaceId,
      project_id: null,
    });
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const before = await countRows();
    const admin = client(t.app, f.w.admin);
    const bad = await admin.post(`${ws}/export-issues/`, { provider: "pdf" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("Provider 'pdf' not found.");
    expect((await admin.post(`${ws}/export-issues/`, {})).statusCode).toBe(400);
    expect((await admin.post(`${ws}/export-issues/`, { provider: "csv", project: ["nope"] })).statusCode).toBe(400);
    expect((await admin.post(`${ws}/export-issues/`, { provider: "csv", project: "all" })).statusCode).toBe(400);
    const foreign = await admin.post(`${ws}/export-issues/`, { provider: "csv", project: [f.foreign.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields.project).toHaveLength(1);
    expect((await admin.get(`${ws}/export-issues/`)).statusCode).toBe(400);
    expect((await admin.get(`${ws}/export-issues/?per_page=10&cursor=bad`)).statusCode).toBe(400);
    expect(await countRows()).toEqual(before);
  });

  it("is for workspace admins: 401, 404, 403", async () => {
    const before = await countRows();
    const [done] = await t.db.select().from(exporterHistory).where(eq(exporterHistory.status, "completed")).limit(1);
    const downloadUrl = `${ws}/export-issues/${done?.id}/download/`;
    for (const [user, status] of [
      [null, 401],
      [f.w.stranger, 404],
      [f.w.member, 403],
      [f.w.guest, 403],
    ] as const) {
      const c = client(t.app, user);
      expect((await c.post(`${ws}/export-issues/`, { provider: "csv" })).statusCode).toBe(status);
      expect((await c.get(`${ws}/export-issues/?per_page=10&cursor=10:0:0`)).statusCode).toBe(status);
      expect((await c.get(downloadUrl)).statusCode).toBe(status);
    }
    expect(await countRows()).toEqual(before);
  });

  it("answers 404 for another workspace's export", async () => {
    const res = await client(t.app, f.w.stranger).post(`/api/workspaces/${f.w.otherSlug}/export-issues/`, {
      provider: "json",
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.ctx.jobs.kick();
    const id = res.json().export.id;
    const own = await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.otherSlug}/export-issues/${id}/download/`);
    expect(own.statusCode).toBe(200);
    expect((await client(t.app, f.w.admin).get(`${ws}/export-issues/${id}/download/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).get(`${ws}/export-issues/not-a-uuid/download/`)).statusCode).toBe(404);
    const list = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=100&cursor=100:0:0`);
    expect((list.json().results as View[]).map((e) => e.id)).not.toContain(id);
  });

  it("fails an export whose requester is no longer an admin", async () => {
    await t.app.ctx.jobs.stop();
    try {
      const res = await client(t.app, f.w.admin).post(`${ws}/export-issues/`, { provider: "csv" });
      const id = res.json().export.id;
      expect(res.json().export.status).toBe("queued");
      await t.db.update(workspaceMembers).set({ role: ROLE.member }).where(eq(workspaceMembers.memberId, f.w.admin.id));
      t.app.ctx.jobs.start();
      await t.app.ctx.jobs.kick();
      const [row] = await t.db.select().from(exporterHistory).where(eq(exporterHistory.id, id));
      expect(row).toMatchObject({ status: "failed", key: null });
      expect(row?.reason).toMatch(/no longer a workspace admin/);
    } finally {
      await t.db.update(workspaceMembers).set({ role: ROLE.admin }).where(eq(workspaceMembers.memberId, f.w.admin.id));
    }
  });
});

describe("GET export-issues/", () => {
  it("pages newest first with the reference's cursor", async () => {
    const all = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=100&cursor=100:0:0`);
    const total = all.json().total_results as number;
    expect(total).toBeGreaterThan(3);
    const first = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=2&cursor=2:0:0`);
    expect(first.json()).toMatchObject({
      count: 2,
      next_page_results: true,
      prev_page_results: false,
      next_cursor: "2:1:0",
    });
    const second = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=2&cursor=2:1:0`);
    const ids = [...first.json().results, ...second.json().results].map((e: View) => e.id);
    expect(ids).toEqual((all.json().results as View[]).slice(0, 4).map((e) => e.id));
  });
});

describe("expiry", () => {
  it("deletes files after 7 days; the list shows them expired and the download says so", async () => {
    const view = await exportAs("csv");
    const [row] = await t.db.select().from(exporterHistory).where(eq(exporterHistory.id, view.id));
    const key = row?.key as string;
    expect(await deps.storage.stat(key)).not.toBeNull();
    await t.db
      .update(exporterHistory)
      .set({ completedAt: sql`now() - interval '8 days'` })
      .where(eq(exporterHistory.id, view.id));
    expect(await expireExports(deps)).toBeGreaterThanOrEqual(1);
    expect(await deps.storage.stat(key)).toBeNull();
    const gone = await client(t.app, f.w.admin).get(`${ws}/export-issues/${view.id}/download/`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().code).toBe("EXPORT_EXPIRED");
    const list = await client(t.app, f.w.admin).get(`${ws}/export-issues/?per_page=100&cursor=100:0:0`);
    expect((list.json().results as View[]).find((e) => e.id === view.id)).toMatchObject({
      is_expired: true,
      url: null,
      status: "completed",
    });
    expect(eventsOf(f, "export.updated", view.id).at(-1)?.data.is_expired).toBe(true);
    // A second sweep finds nothing more to do.
    expect(await expireExports(deps)).toBe(0);
  });
});

describe("streaming in batches", () => {
  it("reads work items by keyset in batches of the given size and writes every one", async () => {
    const project = await anotherProject(t, f);
    const n = 3000;
    await t.db.execute(sql`
      insert into issues (workspace_id, project_id, sequence_id, name, created_by)
      select ${f.w.workspaceId}::uuid, ${project.id}::uuid, g, 'Seeded ' || g, ${f.w.admin.id}::uuid
      from generate_series(1, ${n}) g`);
    await t.app.ctx.jobs.stop();
    try {
      const res = await client(t.app, f.w.admin).post(`${ws}/export-issues/`, {
        provider: "json",
        project: [project.id],
      });
      const id = res.json().export.id as string;
      const batches: number[] = [];
      await runExport(deps, id, { batchSize: 250, onBatch: (rows) => batches.push(rows) });
      expect(batches).toEqual(Array(12).fill(250));
      const [row] = await t.db.select().from(exporterHistory).where(eq(exporterHistory.id, id));
      expect(row).toMatchObject({ status: "completed", exportedItems: n, totalItems: n });
      const file = await client(t.app, f.w.admin).get(`${ws}/export-issues/${id}/download/`);
      const rows = file.json() as { id: string; name: string }[];
      expect(rows).toHaveLength(n);
      expect(rows[0]).toMatchObject({ id: `${project.identifier}-1`, name: "Seeded 1" });
      expect(rows[n - 1]).toMatchObject({ id: `${project.identifier}-${n}`, name: `Seeded ${n}` });
    } finally {
      t.app.ctx.jobs.start();
    }
  });
});

describe("a restart", () => {
  it("finishes an export queued before the app closed, in a new app on the same database", async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-export-restart-"));
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
      APP_BASE_URL: ORIGIN,
      LOG_LEVEL: "silent",
    });
    const start = async () => {
      const app = await buildApp(config, { serveClient: false, database, logger: false });
      await app.ready();
      return app;
    };
    try {
      const first = await start();
      // The worker is stopped: the job stays queued, as if the process went down at once.
      await first.ctx.jobs.stop();
      const world = { app: first, db: database.db, close: async () => {} };
      const fx = await createFixture(world);
      await createIssue(world, fx.w.admin, fx.project.url, { name: "Survives a restart" });
      const res = await client(first, fx.w.admin).post(`/api/workspaces/${fx.w.slug}/export-issues/`, {
        provider: "csv",
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().export.id as string;
      await first.close();
      const [queued] = await database.db.select().from(exporterHistory).where(eq(exporterHistory.id, id));
      expect(queued?.status).toBe("queued");

      const second = await start();
      try {
        const list = () =>
          client(second, fx.w.admin).get(`/api/workspaces/${fx.w.slug}/export-issues/?per_page=10&cursor=10:0:0`);
        await expect.poll(async () => (await list()).json().results[0].status, { timeout: 20_000 }).toBe("completed");
        const url = (await list()).json().results[0].url as string;
        const file = await client(second, fx.w.admin).get(url);
        expect(file.statusCode).toBe(200);
        expect(file.body).toContain("Survives a restart");
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
