/**
 * Fixtures of the pages API tests: the projects tests' world (workspace with admin, member,
 * guest, outsider and a stranger elsewhere), a project with that team, pages created through
 * the API, and Yjs helpers that edit a page body the way the editor does.
 */
import type { DomainEvent } from "@tideline/shared";
import { count, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as Y from "yjs";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { pages } from "../../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../projects/test-support.ts";

export { addMember, createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";

export type Team = Awaited<ReturnType<typeof projectWithTeam>>;

export type PageJson = {
  id: string;
  name: string;
  access: number;
  owned_by: string;
  is_locked: boolean;
  archived_at: string | null;
  is_favorite: boolean;
  project_ids: string[];
  parent: string | null;
  description_html: string;
  logo_props: Record<string, unknown>;
  color: string;
  view_props: Record<string, unknown>;
};

export const pagesUrl = (p: { url: string }) => `${p.url}/pages/`;
export const pageUrl = (p: { url: string }, pageId: string) => `${p.url}/pages/${pageId}/`;

/** Create a page through the API as `user` (201 expected). */
export async function createPage(
  t: TestApp,
  user: TestUser,
  project: { url: string },
  body: Record<string, unknown> = {},
): Promise<PageJson> {
  const res = await client(t.app, user).post(pagesUrl(project), { name: "A page", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function pageRow(t: TestApp, id: string) {
  const [row] = await t.db.select().from(pages).where(eq(pages.id, id));
  return row;
}

export async function countPages(t: TestApp, workspaceId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(pages).where(eq(pages.workspaceId, workspaceId));
  return row?.n ?? 0;
}

/** A world's project with admin (project admin), member and guest, plus its URL. */
export const team = (t: TestApp, w: World, body: Record<string, unknown> = {}) => projectWithTeam(t, w, body);

/** What each pages test file starts from: a test app, the world, and a project with its team. */
export async function startPagesWorld(): Promise<{ t: TestApp; w: World; p: Team }> {
  const t = await createTestApp();
  const w = await createWorld(t);
  return { t, w, p: await team(t, w) };
}

/** Collect domain events published from now on. */
export function recordEvents(t: TestApp): DomainEvent[] {
  const seen: DomainEvent[] = [];
  t.app.ctx.events.subscribe((e) => {
    seen.push(e);
  });
  return seen;
}

// ───────── Yjs, the way the editor writes a page ─────────

/** A Y.Doc loaded from a state (the GET description/ answer). */
export function docOf(state: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc;
}

/** Append a paragraph with `text` to the `default` fragment; returns the update it made. */
export function appendParagraph(doc: Y.Doc, text: string): Uint8Array {
  const before = Y.encodeStateVector(doc);
  const paragraph = new Y.XmlElement("paragraph");
  paragraph.insert(0, [new Y.XmlText(text)]);
  const fragment = doc.getXmlFragment("default");
  fragment.insert(fragment.length, [paragraph]);
  return Y.encodeStateAsUpdate(doc, before);
}

/** Texts of the fragment's top-level elements. */
export function paragraphs(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment("default")
    .toArray()
    .map((node) =>
      node instanceof Y.XmlElement
        ? node
            .toArray()
            .map((c) => c.toString())
            .join("")
        : "",
    );
}

/** GET description/ as bytes. */
export async function fetchState(t: TestApp, user: TestUser, url: string): Promise<Uint8Array> {
  const res = await client(t.app, user).get(`${url}description/`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("application/octet-stream");
  return new Uint8Array(res.rawPayload);
}

/** PATCH description/ with a binary update. */
export function patchState(t: TestApp, user: TestUser | null, url: string, update: Uint8Array) {
  return client(t.app, user, { "content-type": "application/octet-stream" }).patch(
    `${url}description/`,
    Buffer.from(update),
  );
}
