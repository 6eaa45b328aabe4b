/**
 * Pages API under /api/workspaces/:slug/projects/:projectId (calls-errors-sync §7 "Pages").
 * Who may do what is in policy.ts (product-domain §6); the body of a page is a Yjs document
 * shared with the live layer (document.ts). Answers:
 * - pages/ GET (?type=public|private|archived, ?search=) list; POST create → 201 the page;
 * - pages/{id}/ GET, PATCH → the page with description_html; DELETE (archived pages) → 204;
 * - pages/{id}/access/ POST {access}, lock/ POST and DELETE, archive/ DELETE → the page;
 *   archive/ POST → {archived_at};
 * - favorite-pages/{id}/ POST → 201 the favorite (200 when it existed), DELETE → 204;
 * - archived-pages/ GET; pages/{id}/duplicate/ POST → 201 the copy; move/ POST → the page;
 * - pages/{id}/description/ GET → the Yjs state (application/octet-stream); PATCH or POST a
 *   binary Yjs update, or JSON {description_binary (base64), description_html} as the reference's
 *   clients save → the page. The document's `title` field is the page's name (document.ts);
 * - pages/{id}/versions/ GET, versions/{vid}/ GET (with description_html), POST
 *   versions/{vid}/restore/ → the page.
 */
import { LIVE_LIMITS, PAGE_ERRORS, ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { foldPendingLog } from "../../live/storage.ts";
import { projectAccess } from "../../policies/access.ts";
import { recordRecentVisit } from "../recent-visits/service.ts";
import { publishPageContentChange, readPageState } from "./document.ts";
import { pageAccess } from "./policy.ts";
import { presentVersion, presentVersionDetail } from "./presenter.ts";
import {
  accessBody,
  createPageBody,
  descriptionJsonBody,
  listPagesQuery,
  moveBody,
  parseRequired,
  updatePageBody,
} from "./schema.ts";
import {
  addPageFavorite,
  archivePage,
  createPage,
  deletePage,
  duplicatePage,
  getVersion,
  listPages,
  listVersions,
  movePage,
  pageDetail,
  patchDescription,
  removePageFavorite,
  restorePage,
  restoreVersion,
  setPageAccess,
  setPageLocked,
  updatePage,
} from "./service.ts";

type ProjectParams = { slug: string; projectId: string };
type PageParams = ProjectParams & { pageId: string };
type VersionParams = PageParams & { versionId: string };

const PROJECT = "/api/workspaces/:slug/projects/:projectId";
const PAGE = `${PROJECT}/pages/:pageId`;
/** Largest binary Yjs update accepted over REST: a whole document at the live layer's limit. */
const UPDATE_MAX_BYTES = LIVE_LIMITS.maxDocumentBytes;

export async function pagesRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  // Binary Yjs updates (description/ PATCH); registered in this plugin only.
  app.addContentTypeParser(
    "application/octet-stream",
    { parseAs: "buffer", bodyLimit: UPDATE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  const page = (request: FastifyRequest<{ Params: PageParams }>) =>
    pageAccess(db, request, request.params.slug, request.params.projectId, request.params.pageId);
  const inTx = <T>(request: FastifyRequest, work: Parameters<typeof transactionWithEvents<T>>[3]) =>
    transactionWithEvents(db, events, eventOrigin(request), work);
  const tellLive = (pageId: string, update: Uint8Array | null) => {
    if (update) publishPageContentChange(events, app.log, pageId, update);
  };

  // ───────── list, create ─────────

  app.get<{ Params: ProjectParams }>(`${PROJECT}/pages/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    return listPages(db, access, parse(listPagesQuery, request.query));
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT}/archived-pages/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const { search } = parse(listPagesQuery, request.query);
    return listPages(db, access, { type: "archived", search });
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT}/pages/`, async (request, reply) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
      minRole: ROLE.member,
    });
    const body = parse(createPageBody, request.body);
    const created = await inTx(request, (tx, emit) => createPage(tx, emit, access, body));
    return reply.status(201).send(await pageDetail(db, created.id, access.user.id));
  });

  // ───────── one page ─────────

  app.get<{ Params: PageParams; Querystring: { track_visit?: unknown } }>(`${PAGE}/`, async (request) => {
    const access = await page(request);
    // Edits still only in the write-ahead log (a crash, a pending store) show in description_html.
    await foldPendingLog(db, events, { kind: "page", id: access.page.id }, app.ctx.live.instanceId);
    const detail = await pageDetail(db, access.page.id, access.user.id);
    // Opening a page is a recent visit (the home's Recents); the reference's ?track_visit=false reads without one.
    if (String(request.query.track_visit ?? "true").toLowerCase() !== "false") {
      await recordRecentVisit(db, request.log, {
        workspaceId: access.workspace.id,
        userId: access.user.id,
        projectId: access.project.id,
        entityName: "page",
        entityIdentifier: access.page.id,
      });
    }
    return detail;
  });

  app.patch<{ Params: PageParams }>(`${PAGE}/`, async (request) => {
    const access = await page(request);
    const body = parse(updatePageBody, request.body);
    const { contentUpdate } = await inTx(request, (tx, emit) => updatePage(tx, emit, access, body));
    tellLive(access.page.id, contentUpdate);
    return pageDetail(db, access.page.id, access.user.id);
  });

  app.delete<{ Params: PageParams }>(`${PAGE}/`, async (request, reply) => {
    const access = await page(request);
    await inTx(request, (tx, emit) => deletePage(tx, emit, access));
    return reply.status(204).send();
  });

  app.post<{ Params: PageParams }>(`${PAGE}/access/`, async (request) => {
    const access = await page(request);
    const body = parseRequired(accessBody, request.body, ["access"]);
    await inTx(request, (tx, emit) => setPageAccess(tx, emit, access, body.access));
    return pageDetail(db, access.page.id, access.user.id);
  });

  for (const [method, locked] of [
    ["POST", true],
    ["DELETE", false],
  ] as const) {
    app.route<{ Params: PageParams }>({
      method,
      url: `${PAGE}/lock/`,
      handler: async (request) => {
        const access = await page(request);
        await inTx(request, (tx, emit) => setPageLocked(tx, emit, access, locked));
        return pageDetail(db, access.page.id, access.user.id);
      },
    });
  }

  app.post<{ Params: PageParams }>(`${PAGE}/archive/`, async (request) => {
    const access = await page(request);
    const archivedAt = await inTx(request, (tx, emit) => archivePage(tx, emit, access));
    return { archived_at: archivedAt.toISOString() };
  });

  app.delete<{ Params: PageParams }>(`${PAGE}/archive/`, async (request) => {
    const access = await page(request);
    await inTx(request, (tx, emit) => restorePage(tx, emit, access));
    return pageDetail(db, access.page.id, access.user.id);
  });

  // ───────── favorites ─────────

  app.post<{ Params: PageParams }>(`${PROJECT}/favorite-pages/:pageId/`, async (request, reply) => {
    const access = await page(request);
    const { created, favorite } = await addPageFavorite(app.ctx, eventOrigin(request), access);
    return reply.status(created ? 201 : 200).send(favorite);
  });

  app.delete<{ Params: PageParams }>(`${PROJECT}/favorite-pages/:pageId/`, async (request, reply) => {
    const access = await page(request);
    await removePageFavorite(app.ctx, eventOrigin(request), access);
    return reply.status(204).send();
  });

  // ───────── duplicate, move ─────────

  app.post<{ Params: PageParams }>(`${PAGE}/duplicate/`, async (request, reply) => {
    const access = await page(request);
    const copy = await inTx(request, (tx, emit) => duplicatePage(tx, emit, access));
    return reply.status(201).send(await pageDetail(db, copy.id, access.user.id));
  });

  app.post<{ Params: PageParams }>(`${PAGE}/move/`, async (request) => {
    const access = await page(request);
    const { new_project_id } = parseRequired(moveBody, request.body, ["new_project_id"]);
    await inTx(request, (tx, emit) => movePage(tx, emit, access, new_project_id));
    return pageDetail(db, access.page.id, access.user.id);
  });

  // ───────── body over REST ─────────

  app.get<{ Params: PageParams }>(`${PAGE}/description/`, async (request, reply) => {
    const access = await page(request);
    const state = await readPageState(db, access.page);
    return reply
      .header("content-type", "application/octet-stream")
      .header("cache-control", "no-store")
      .send(Buffer.from(state.buffer, state.byteOffset, state.byteLength));
  });

  /** description/ PATCH and POST: a binary Yjs update, or the reference's JSON save. */
  const saveDescription = async (request: FastifyRequest<{ Params: PageParams }>) => {
    const access = await page(request);
    const body = request.body;
    const missing = () =>
      badRequest(PAGE_ERRORS.missingFields, { body: ["A Yjs update is required."] }, "MISSING_REQUIRED_FIELDS");
    if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) throw missing();
    if (Buffer.isBuffer(body)) {
      const update = new Uint8Array(body);
      await inTx(request, (tx, emit) => patchDescription(tx, emit, access, update));
      tellLive(access.page.id, update);
      return pageDetail(db, access.page.id, access.user.id);
    }
    if (typeof body !== "object" || Array.isArray(body)) {
      throw badRequest("Send a Yjs update as application/octet-stream, or JSON.", undefined, "UNSUPPORTED_BODY");
    }
    const json = parse(descriptionJsonBody, body);
    if (json.description_binary) {
      const update = new Uint8Array(Buffer.from(json.description_binary, "base64"));
      if (update.byteLength === 0) throw missing();
      await inTx(request, (tx, emit) => patchDescription(tx, emit, access, update));
      tellLive(access.page.id, update);
    } else if (typeof json.description_html === "string") {
      const html = json.description_html;
      const { contentUpdate } = await inTx(request, (tx, emit) =>
        updatePage(tx, emit, access, { description_html: html }),
      );
      tellLive(access.page.id, contentUpdate);
    } else {
      throw badRequest(
        PAGE_ERRORS.missingFields,
        { description_binary: ["Send description_binary (base64) or description_html."] },
        "MISSING_REQUIRED_FIELDS",
      );
    }
    return pageDetail(db, access.page.id, access.user.id);
  };
  app.patch<{ Params: PageParams }>(`${PAGE}/description/`, saveDescription);
  app.post<{ Params: PageParams }>(`${PAGE}/description/`, saveDescription);

  // ───────── versions ─────────

  app.get<{ Params: PageParams }>(`${PAGE}/versions/`, async (request) => {
    const access = await page(request);
    return (await listVersions(db, access.page.id)).map(presentVersion);
  });

  app.get<{ Params: VersionParams }>(`${PAGE}/versions/:versionId/`, async (request) => {
    const access = await page(request);
    return presentVersionDetail(await getVersion(db, access.page.id, requireUuid(request.params.versionId, "Version")));
  });

  app.post<{ Params: VersionParams }>(`${PAGE}/versions/:versionId/restore/`, async (request) => {
    const access = await page(request);
    const versionId = requireUuid(request.params.versionId, "Version");
    const update = await inTx(request, (tx, emit) => restoreVersion(tx, emit, access, versionId));
    tellLive(access.page.id, update);
    return pageDetail(db, access.page.id, access.user.id);
  });
}
