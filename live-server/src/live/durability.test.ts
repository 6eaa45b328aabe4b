/**
 * An edit the provider has seen acknowledged survives `kill -9` of the server: the real server
 * (main.ts) runs as a child process on a temporary data folder, is killed right after the
 * acknowledgement, restarted on the same folder, and the edit is there. Then a normal store
 * derives the HTML.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { issueDocumentName, PAGE_ACCESS, pageDocumentName, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as Y from "yjs";
import { createUser, createWorkspace, type TestUser } from "../../test/harness.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { openDatabase } from "../db/client.ts";
import { documentUpdates, issues, pageProjects, pages, projectMembers, projects } from "../db/schema.ts";
import { appendParagraph, bodyText, eventually, openTab, synced } from "./test-support.ts";

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../main.ts");
const SECRET = "durability-test-secret-key-that-is-long-enough-0123";

let dataDir: string;
let port: number;
let origin: string;
let user: TestUser;
let slug: string;
let projectId: string;
let issueId: string;
/** A page and a second work item, read over REST only after the crash (never opened live again). */
let pageId: string;
let restIssueId: string;
let child: ChildProcess | null = null;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const env = () => ({
  ...process.env,
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  APP_BASE_URL: origin,
  SECRET_KEY: SECRET,
  LOG_LEVEL: "warn",
  CLIENT_DIST: path.join(dataDir, "no-client"),
});

/** Start the server and wait until it answers. */
async function startServer(): Promise<ChildProcess> {
  const started = spawn(process.execPath, [MAIN], { env: env(), stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  started.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  await eventually(async () => {
    if (started.exitCode !== null) throw new Error(`server exited (${started.exitCode}): ${stderr}`);
    const res = await fetch(`${origin}/api/instances/`);
    expect(res.status).toBe(200);
  }, 30_000);
  return started;
}

async function stop(proc: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill(signal);
  await exited;
}

/** Read the data folder directly (only while no server runs). */
async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-durability-"));
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  await withDatabase(async (db) => {
    user = await createUser(db);
    const ws = await createWorkspace(db, user);
    slug = ws.slug;
    const [project] = await db
      .insert(projects)
      .values({ workspaceId: ws.id, name: "Durable", identifier: "DUR", createdById: user.id })
      .returning();
    if (!project) throw new Error("project insert failed");
    projectId = project.id;
    await db.insert(projectMembers).values({ workspaceId: ws.id, projectId, memberId: user.id, role: ROLE.admin });
    const [issue] = await db
      .insert(issues)
      .values({
        workspaceId: ws.id,
        projectId,
        sequenceId: 1,
        name: "Survives",
        descriptionHtml: "<p>Before the crash</p>",
        createdById: user.id,
      })
      .returning();
    if (!issue) throw new Error("issue insert failed");
    issueId = issue.id;
    const [restIssue] = await db
      .insert(issues)
      .values({
        workspaceId: ws.id,
        projectId,
        sequenceId: 2,
        name: "Read over REST",
        descriptionHtml: "<p>Item before</p>",
        createdById: user.id,
      })
      .returning();
    if (!restIssue) throw new Error("issue insert failed");
    restIssueId = restIssue.id;
    const [page] = await db
      .insert(pages)
      .values({
        workspaceId: ws.id,
        name: "Durable page",
        descriptionHtml: "<p>Page before</p>",
        access: PAGE_ACCESS.public,
        ownedById: user.id,
        createdById: user.id,
      })
      .returning();
    if (!page) throw new Error("page insert failed");
    pageId = page.id;
    await db.insert(pageProjects).values({ pageId, projectId, workspaceId: ws.id });
  });
}, 60_000);

afterAll(async () => {
  await stop(child, "SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

it("keeps an acknowledged edit through kill -9, and derives the HTML on a normal store", async () => {
  const name = issueDocumentName(issueId);
  const url = `ws://127.0.0.1:${port}/live`;
  child = await startServer();

  const first = openTab(url, user, { origin });
  const doc = first.open(name);
  await synced(doc);
  expect(bodyText(doc.doc)).toBe("Before the crash");
  for (let i = 1; i <= 5; i++) appendParagraph(doc.doc, `acknowledged ${i}`);
  await synced(doc);
  // Acknowledged: kill the server before its debounced store can run.
  await stop(child, "SIGKILL");
  first.destroy();

  // Only the log has the edits: nothing was folded into the stored description.
  await withDatabase(async (db) => {
    const [row] = await db.select().from(issues).where(eq(issues.id, issueId));
    expect(row?.descriptionHtml).toBe("<p>Before the crash</p>");
    const logged = await db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name));
    expect(logged.length).toBeGreaterThan(0);
  });

  child = await startServer();
  const second = openTab(url, user, { origin });
  const again = second.open(name, new Y.Doc());
  await synced(again);
  const expected = ["Before the crash", 1, 2, 3, 4, 5].map((n) => (typeof n === "number" ? `acknowledged ${n}` : n));
  expect(bodyText(again.doc)).toBe(expected.join("\n"));

  // Last client leaves: the document is stored and its HTML derived.
  second.destroy();
  await eventually(async () => {
    const res = await fetch(`${origin}/api/workspaces/${slug}/projects/${projectId}/issues/${issueId}/`, {
      headers: { cookie: `${SESSION_COOKIE}=${user.token}`, origin },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { description_html: string };
    expect(body.description_html).toBe(expected.map((line) => `<p>${line}</p>`).join(""));
  }, 15_000);
  await stop(child, "SIGTERM");
  await withDatabase(async (db) => {
    const logged = await db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name));
    expect(logged).toEqual([]);
  });
}, 120_000);

it("REST reads show acknowledged edits after kill -9 without the document being opened live", async () => {
  const url = `ws://127.0.0.1:${port}/live`;
  const api = (p: string) =>
    fetch(`${origin}/api/workspaces/${slug}/projects/${projectId}/${p}`, {
      headers: { cookie: `${SESSION_COOKIE}=${user.token}`, origin },
    });
  child = await startServer();
  const tab = openTab(url, user, { origin });
  const page = tab.open(pageDocumentName(pageId));
  const item = tab.open(issueDocumentName(restIssueId));
  await Promise.all([synced(page), synced(item)]);
  appendParagraph(page.doc, "page edit acknowledged");
  appendParagraph(item.doc, "item edit acknowledged");
  await Promise.all([synced(page), synced(item)]);
  await stop(child, "SIGKILL");
  tab.destroy();

  const names = [pageDocumentName(pageId), issueDocumentName(restIssueId)];
  await withDatabase(async (db) => {
    const [pageRow] = await db.select().from(pages).where(eq(pages.id, pageId));
    expect(pageRow?.descriptionHtml).toBe("<p>Page before</p>");
    for (const name of names) {
      const logged = await db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name));
      expect(logged.length, name).toBeGreaterThan(0);
    }
  });

  // A fresh instance; nobody opens the documents: the REST reads alone fold the log.
  child = await startServer();
  const pageRes = await api(`pages/${pageId}/`);
  expect(pageRes.status).toBe(200);
  expect(((await pageRes.json()) as { description_html: string }).description_html).toBe(
    "<p>Page before</p><p>page edit acknowledged</p>",
  );
  // The browse URL by key (DUR-2) folds like the item path.
  const byKey = await fetch(`${origin}/api/workspaces/${slug}/work-items/DUR-2/`, {
    headers: { cookie: `${SESSION_COOKIE}=${user.token}`, origin },
  });
  expect(byKey.status).toBe(200);
  expect(((await byKey.json()) as { description_html: string }).description_html).toBe(
    "<p>Item before</p><p>item edit acknowledged</p>",
  );
  await stop(child, "SIGTERM");

  await withDatabase(async (db) => {
    const [pageRow] = await db.select().from(pages).where(eq(pages.id, pageId));
    expect(pageRow?.descriptionStripped).toContain("page edit acknowledged");
    // The log remembers who sent each edit: the fold credits the editor, not "nobody".
    expect(pageRow?.updatedById).toBe(user.id);
    for (const name of names) {
      expect(await db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name))).toEqual([]);
    }
  });
}, 120_000);
