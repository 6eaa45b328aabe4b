/**
 * Exports of work items (product-domain §1 "exports csv, xlsx, json", settings /settings/exports;
 * calls-errors-sync §7 Projects "POST /export-issues/"), under /api/workspaces/{slug}:
 * - POST export-issues/ {provider: csv|xlsx|json, project: [ids] (none: every live project the
 *   caller is in), multiple}: queues the export (a history row + a durable job) and answers the
 *   reference's message with the export;
 * - GET export-issues/?per_page&cursor=perPage:page:0: the history, newest first (both required,
 *   as the reference);
 * - GET export-issues/{id}/download/: the file, streamed from the storage, while it is kept
 *   (7 days; then 410 EXPORT_EXPIRED).
 * Who (product-domain §6 "Workspace settings: exports"): workspace admins only — members and
 * guests 403, non-members 404. Events export.created / export.updated go to the workspace's
 * channel, to its admins only (live/extensions/events.ts).
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { CONTENT_TYPES, type ExportProvider } from "../../exports/writers.ts";
import { ApiError, badRequest, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { createStorage } from "../../storage/index.ts";
import { singleQueryValue } from "../issues/common.ts";
import { parseCursor } from "../issues/list.ts";
import { runExport } from "./job.ts";
import { createExportBody } from "./schema.ts";
import { createExport, EXPORT_JOB, type ExportDeps, expireExports, exportOf, listExports } from "./service.ts";

type SlugParams = { slug: string };
type ExportParams = SlugParams & { exportId: string };

const WS = "/api/workspaces/:slug";
/** How often the expiry sweep runs. */
const EXPIRY_SWEEP_MS = 60 * 60 * 1000;

export async function exportsRoutes(app: FastifyInstance): Promise<void> {
  const { db, events, jobs } = app.ctx;
  const deps: ExportDeps = { db, events, jobs, storage: createStorage(app.ctx.config) };

  jobs.register(EXPORT_JOB, async (payload) => {
    const id = payload.export_id;
    if (typeof id === "string" && isUuid(id)) await runExport(deps, id);
  });

  // The expiry sweep: at start, then hourly. Idempotent, so several instances may run it.
  let sweep: NodeJS.Timeout | undefined;
  const runSweep = () => expireExports(deps).catch((err) => app.log.warn({ err }, "export expiry sweep failed"));
  app.addHook("onReady", async () => {
    void runSweep();
    sweep = setInterval(runSweep, EXPIRY_SWEEP_MS);
    sweep.unref();
  });
  app.addHook("onClose", async () => {
    if (sweep) clearInterval(sweep);
  });

  app.post<{ Params: SlugParams }>(`${WS}/export-issues/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    const body = parse(createExportBody, request.body ?? {});
    const view = await createExport(deps, access, body, eventOrigin(request));
    return { message: "Once the export is ready you will be able to download it", export: view };
  });

  app.get<{ Params: SlugParams; Querystring: Record<string, unknown> }>(`${WS}/export-issues/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    const perPage = singleQueryValue(request.query.per_page);
    const cursor = singleQueryValue(request.query.cursor);
    if (!perPage || !cursor) {
      throw badRequest("per_page and cursor are required", {
        ...(perPage ? {} : { per_page: ["Required"] }),
        ...(cursor ? {} : { cursor: ["Required"] }),
      });
    }
    const page = parseCursor(cursor, perPage);
    return listExports(db, access, page.perPage, page.pageIndex);
  });

  app.get<{ Params: ExportParams }>(`${WS}/export-issues/:exportId/download/`, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    if (!isUuid(request.params.exportId)) throw notFound("Export");
    const row = await exportOf(db, access, request.params.exportId);
    if (row.expiredAt) {
      throw new ApiError(410, "This export has expired: exports are kept 7 days. Export again.", {
        code: "EXPORT_EXPIRED",
      });
    }
    if (row.status !== "completed" || !row.key) {
      throw new ApiError(409, "This export is not ready yet.", { code: "EXPORT_NOT_READY" });
    }
    const file = await deps.storage.open(row.key);
    if (!file) throw notFound("Export file");
    return reply
      .headers({
        "content-type": CONTENT_TYPES[row.provider as ExportProvider] ?? "application/octet-stream",
        "content-disposition": `attachment; filename="${row.fileName ?? `export-${row.id}`}"`,
        "content-length": String(file.size),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
      })
      .send(file.stream);
  });
}
