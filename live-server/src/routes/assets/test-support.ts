/**
 * Fixtures for the asset tests: work items inserted directly (the issues API is built
 * elsewhere), multipart bodies built the way a browser builds them, and the browser's
 * credential-less POST to a signed upload.
 */
import { eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { ORIGIN, type TestApp, type TestUser } from "../../../test/harness.ts";
import { issues, projects } from "../../db/schema.ts";

/** A work item in `projectId`, numbered like the issues API numbers them. */
export async function insertIssue(t: TestApp, projectId: string, creator: TestUser, name = "Work item") {
  const [project] = await t.db
    .update(projects)
    .set({ lastSequenceId: sql`${projects.lastSequenceId} + 1` })
    .where(eq(projects.id, projectId))
    .returning();
  if (!project) throw new Error("no such project");
  const [issue] = await t.db
    .insert(issues)
    .values({
      workspaceId: project.workspaceId,
      projectId,
      sequenceId: project.lastSequenceId,
      name,
      createdById: creator.id,
      updatedById: creator.id,
    })
    .returning();
  if (!issue) throw new Error("issue insert failed");
  return issue;
}

export type FilePart = { name: string; type: string; bytes: Uint8Array };

/** A multipart/form-data body of `fields` then `file`, encoded by the platform's own FormData. */
export async function multipartBody(fields: Record<string, string>, file?: FilePart, fileField = "file") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(fileField, new Blob([file.bytes], { type: file.type }), file.name);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("content-type") ?? "",
  };
}

export type UploadData = { url: string; fields: Record<string, string> };

/** What the browser does with upload_data: POST fields + file to the URL, without cookies. */
export async function postUpload(
  t: TestApp,
  upload: UploadData,
  file: FilePart,
  options: { fields?: Record<string, string>; origin?: string | null } = {},
): Promise<LightMyRequestResponse> {
  const url = new URL(upload.url);
  expect(url.origin).toBe(ORIGIN);
  const body = await multipartBody(options.fields ?? upload.fields, file);
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  return t.app.inject({
    method: "POST",
    url: url.pathname,
    payload: body.payload,
    headers: { "content-type": body.contentType, ...(origin ? { origin } : {}) },
  });
}

export const png = (size = 64): FilePart => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < size; i++) bytes[i] = (i * 31) % 256;
  return { name: "diagram.png", type: "image/png", bytes };
};
