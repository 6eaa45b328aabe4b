/**
 * A work item's description history, as pages have versions (services/description-versions.ts
 * records them):
 * - GET {type}/:issueId/description-versions/ — newest first, paginated like the reference
 *   (`cursor=perPage:page:0`, `per_page`; answer {results, cursor, next_cursor, prev_cursor,
 *   next_page_results, prev_page_results, page_count, total_pages, total_results});
 * - GET {type}/:issueId/description-versions/:versionId/ — one version with its description
 *   (description_html, description_stripped, description_binary as base64 or null).
 * `{type}` is issues, epics, or work-items (the reference's path). Reading needs any project
 * role; guests see only the items the guest rule lets them see; other workspaces get 404.
 */
import { and, count, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { issueDescriptionVersions } from "../../db/schema.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import type { DescriptionVersionRow } from "../../services/description-versions.ts";
import { ITEM_TYPES, type ItemParams, type ItemType, iso, itemAccess, PROJECT_PATH } from "./common.ts";

const PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

const listQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d+:\d+:[01]$/, "cursor must look like count:page:0 (page size, page index)")
    .refine((c) => Number(c.split(":")[0]) >= 1, "The cursor's page size must be at least 1")
    .optional(),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});

function presentVersion(v: DescriptionVersionRow) {
  return {
    id: v.id,
    workspace: v.workspaceId,
    project: v.projectId,
    issue: v.issueId,
    owned_by: v.ownedById,
    last_saved_at: iso(v.lastSavedAt),
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}

function presentVersionDetail(v: DescriptionVersionRow) {
  return {
    ...presentVersion(v),
    description_html: v.descriptionHtml,
    description_stripped: v.descriptionStripped,
    description_binary: v.descriptionBinary ? Buffer.from(v.descriptionBinary).toString("base64") : null,
    description_json: null,
  };
}

type VersionParams = ItemParams & { versionId: string };

export async function registerDescriptionVersionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const segments: [string, ItemType][] = [
    ...ITEM_TYPES.map((t) => [t, t] as [string, ItemType]),
    ["work-items", "issues"],
  ];

  for (const [segment, type] of segments) {
    const base = `${PROJECT_PATH}/${segment}/:issueId/description-versions`;

    app.get<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      const query = parse(listQuery, request.query);
      const [cursorSize, cursorPage] = (query.cursor ?? `${PAGE_SIZE}:0:0`).split(":").map(Number);
      const size = Math.min(query.per_page ?? cursorSize ?? PAGE_SIZE, MAX_PAGE_SIZE);
      const page = cursorPage ?? 0;
      const offset = page * size;
      if (!Number.isSafeInteger(offset)) {
        throw badRequest(
          "cursor: this page is out of range",
          { cursor: ["This page is out of range"] },
          "VALIDATION_ERROR",
        );
      }
      const where = eq(issueDescriptionVersions.issueId, access.issue.id);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(issueDescriptionVersions)
          .where(where)
          .orderBy(desc(issueDescriptionVersions.lastSavedAt), desc(issueDescriptionVersions.createdAt))
          .limit(size)
          .offset(offset),
        db.select({ n: count() }).from(issueDescriptionVersions).where(where),
      ]);
      const totalResults = total?.n ?? 0;
      return {
        results: rows.map(presentVersion),
        cursor: `${size}:${page}:0`,
        next_cursor: `${size}:${page + 1}:0`,
        prev_cursor: `${size}:${Math.max(page - 1, 0)}:1`,
        next_page_results: offset + rows.length < totalResults,
        prev_page_results: page > 0,
        page_count: rows.length,
        total_pages: Math.ceil(totalResults / size),
        total_results: totalResults,
      };
    });

    app.get<{ Params: VersionParams }>(`${base}/:versionId/`, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      const versionId = requireUuid(request.params.versionId, "Description version");
      const [row] = await db
        .select()
        .from(issueDescriptionVersions)
        .where(and(eq(issueDescriptionVersions.id, versionId), eq(issueDescriptionVersions.issueId, access.issue.id)));
      if (!row) throw notFound("Description version");
      return presentVersionDetail(row);
    });
  }
}
