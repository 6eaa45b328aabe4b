import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type DomainEvent, FILE_TOO_LARGE_MESSAGE, MAX_ATTACHMENT_SIZE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, ORIGIN, type TestApp, type TestUser } from "../../../test/harness.ts";
import { fileAssets, issueActivities, projects } from "../../db/schema.ts";
import { LocalStorage } from "../../storage/index.ts";
import { createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { type FilePart, insertIssue, multipartBody, png, postUpload, type UploadData } from "./test-support.ts";

let t: TestApp;
let w: World;
let uploadsDir: string;
const events: DomainEvent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  const storage = t.app.ctx.config.storage;
  if (storage.driver !== "local") throw new Error("tests expect local storage");
  uploadsDir = storage.dir;
  t.app.ctx.events.subscribe((e) => {
    events.push(e);
  });
});
afterAll(() => t.close());

/** A project with admin/member/guest and one work item created by `creator` (member by default). */
async function fixture(creator?: TestUser, projectBody: Record<string, unknown> = {}) {
  const p = await projectWithTeam(t, w, projectBody);
  const issue = await insertIssue(t, p.id, creator ?? w.member);
  const base = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/issues/${issue.id}/attachments/`;
  return { p, issue, base };
}

type RequestedUpload = {
  upload_data: UploadData;
  asset_id: string;
  attachment: { id: string; asset_url: string; attributes: { name: string; size: number; type: string } };
};

async function requestUpload(base: string, user: TestUser, file: FilePart, size = file.bytes.length) {
  const res = await client(t.app, user).post(base, { name: file.name, type: file.type, size });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RequestedUpload;
}

/** Request, upload and confirm: the whole browser flow for one file. */
async function attach(base: string, user: TestUser, file: FilePart) {
  const requested = await requestUpload(base, user, file);
  const uploaded = await postUpload(t, requested.upload_data, file);
  expect(uploaded.statusCode, uploaded.body).toBe(204);
  const confirmed = await client(t.app, user).patch(`${base}${requested.asset_id}/`, { is_uploaded: true });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return requested;
}

const assetRow = async (id: string) => (await t.db.select().from(fileAssets).where(eq(fileAssets.id, id)))[0];
const assetCount = async () => (await t.db.select({ id: fileAssets.id }).from(fileAssets)).length;
const filesOnDisk = (): string[] =>
  existsSync(uploadsDir) ? readdirSync(uploadsDir, { recursive: true, encoding: "utf8" }) : [];

describe("work-item attachments: the whole flow", () => {
  it("requests, uploads, confirms, lists, downloads and deletes a file", async () => {
    const { p, issue, base } = await fixture();
    const file = png(2048);

    const requested = await requestUpload(base, w.member, file);
    expect(requested.upload_data.url).toBe(`${ORIGIN}/api/assets/v2/upload/`);
    expect(Object.keys(requested.upload_data.fields).sort()).toEqual([
      "content_type",
      "expires",
      "key",
      "max_size",
      "signature",
    ]);
    expect(requested.upload_data.fields).toMatchObject({ content_type: "image/png", max_size: "2048" });
    expect(requested.attachment).toMatchObject({
      id: requested.asset_id,
      attributes: { name: "diagram.png", size: 2048, type: "image/png" },
      asset_url: `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/${requested.asset_id}/`,
    });
    const pending = await assetRow(requested.asset_id);
    expect(pending).toMatchObject({
      entityType: "ISSUE_ATTACHMENT",
      entityIdentifier: issue.id,
      workspaceId: w.workspaceId,
      projectId: p.id,
      isUploaded: false,
      uploadedAt: null,
      createdById: w.member.id,
    });
    // Not listed, not readable until confirmed.
    expect((await client(t.app, w.member).get(base)).json()).toEqual([]);
    expect((await client(t.app, w.member).get(requested.attachment.asset_url)).statusCode).toBe(404);

    // The browser posts to the signed URL without credentials.
    const uploaded = await postUpload(t, requested.upload_data, file);
    expect(uploaded.statusCode, uploaded.body).toBe(204);
    expect(existsSync(path.join(uploadsDir, pending?.storageKey ?? "-"))).toBe(true);

    events.length = 0;
    const confirmed = await client(t.app, w.member).patch(`${base}${requested.asset_id}/`, { is_uploaded: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: requested.asset_id, issue_id: issue.id, created_by: w.member.id });
    const row = await assetRow(requested.asset_id);
    expect(row?.isUploaded).toBe(true);
    expect(row?.uploadedAt).toBeInstanceOf(Date);
    const created = await t.db
      .select()
      .from(issueActivities)
      .where(and(eq(issueActivities.issueId, issue.id), eq(issueActivities.field, "attachment")));
    // As the reference records it: the asset itself (where it is read) and its id.
    expect(created).toMatchObject([
      {
        verb: "created",
        actorId: w.member.id,
        oldValue: null,
        newValue: requested.attachment.asset_url,
        newIdentifier: requested.asset_id,
        comment: "created an attachment",
      },
    ]);
    expect(events.map((e) => [e.type, e.entity_id, e.project_id, e.actor_id])).toEqual([
      ["attachment.created", requested.asset_id, p.id, w.member.id],
    ]);
    expect(events[0]?.data).toMatchObject({ id: requested.asset_id, issue_id: issue.id });

    // Confirming again changes nothing and records nothing.
    events.length = 0;
    expect(
      (await client(t.app, w.member).patch(`${base}${requested.asset_id}/`, { is_uploaded: true })).statusCode,
    ).toBe(200);
    expect(events).toEqual([]);

    // A guest who sees only their own items does not see this one.
    expect((await client(t.app, w.guest).get(base)).statusCode).toBe(404);
    const listed = await client(t.app, w.admin).get(base);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      {
        id: requested.asset_id,
        attributes: { name: "diagram.png", size: 2048, type: "image/png" },
        asset_url: requested.attachment.asset_url,
        issue_id: issue.id,
        project_id: p.id,
        workspace_id: w.workspaceId,
        created_by: w.member.id,
        updated_by: w.member.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);

    const download = await client(t.app, w.admin).get(requested.attachment.asset_url);
    expect(download.statusCode).toBe(200);
    expect(new Uint8Array(download.rawPayload)).toEqual(file.bytes);
    expect(download.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": "2048",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    expect(download.headers["content-disposition"]).toMatch(/^inline; filename="diagram.png"/);
    expect(download.headers["cache-control"]).toMatch(/^private/);

    events.length = 0;
    const removed = await client(t.app, w.member).delete(`${base}${requested.asset_id}/`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await assetRow(requested.asset_id))?.deletedAt).toBeInstanceOf(Date);
    expect(existsSync(path.join(uploadsDir, pending?.storageKey ?? "-"))).toBe(false);
    expect(events.map((e) => [e.type, e.entity_id])).toEqual([["attachment.deleted", requested.asset_id]]);
    const deleted = await t.db
      .select()
      .from(issueActivities)
      .where(and(eq(issueActivities.issueId, issue.id), eq(issueActivities.verb, "deleted")));
    // The reference records only that an attachment went.
    expect(deleted).toMatchObject([
      {
        field: "attachment",
        oldValue: null,
        newValue: null,
        oldIdentifier: null,
        newIdentifier: null,
        comment: "deleted the attachment",
      },
    ]);
    expect((await client(t.app, w.admin).get(base)).json()).toEqual([]);
    expect((await client(t.app, w.admin).get(requested.attachment.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.member).delete(`${base}${requested.asset_id}/`)).statusCode).toBe(404);
  });

  it("sanitises the file name", async () => {
    const { base } = await fixture();
    const res = await client(t.app, w.member).post(base, {
      name: "../../etc/\u202Egnp.exe\u0007  report\n.txt",
      type: "text/plain; charset=utf-8",
      size: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().attachment.attributes).toEqual({ name: "gnp.exe report .txt", size: 3, type: "text/plain" });
    // NUL cannot be stored at all: refused before the route runs (http/input.ts), like everywhere.
    const nul = await client(t.app, w.member).post(base, { name: "a\u0000.txt", type: "text/plain", size: 3 });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ code: "INVALID_INPUT", fields: { name: ["Contains a NUL character."] } });
  });
});

describe("POST …/attachments/ (request a signed upload)", () => {
  it("accepts exactly 5 MB and refuses one byte more, storing nothing", async () => {
    const { base } = await fixture();
    const ok = await client(t.app, w.member).post(base, { name: "a.bin", type: "", size: MAX_ATTACHMENT_SIZE });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().attachment.attributes.type).toBe("application/octet-stream");
    const before = await assetCount();
    const res = await client(t.app, w.member).post(base, { name: "a.bin", type: "", size: MAX_ATTACHMENT_SIZE + 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: FILE_TOO_LARGE_MESSAGE, fields: { size: [FILE_TOO_LARGE_MESSAGE] } });
    expect(await assetCount()).toBe(before);
  });

  it("is 400 on bad input and stores nothing", async () => {
    const { base } = await fixture();
    const before = await assetCount();
    for (const body of [
      {},
      { name: "", type: "image/png", size: 3 },
      { name: "a.png", type: "image/png", size: -1 },
      { name: "a.png", type: "image/png", size: 1.5 },
      { name: "a.png", type: "image/png", size: "3" },
      { name: "a.png", type: 5, size: 3 },
    ]) {
      const res = await client(t.app, w.member).post(base, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await assetCount()).toBe(before);
  });

  it("is 403 for a project guest, 401 anonymous, 404 for another workspace or a hidden item", async () => {
    const { p, issue, base } = await fixture(w.guest);
    const body = { name: "a.png", type: "image/png", size: 3 };
    const before = await assetCount();
    expect((await client(t.app, w.guest).post(base, body)).statusCode).toBe(403);
    expect((await client(t.app, null).post(base, body)).statusCode).toBe(401);
    expect((await client(t.app, w.outsider).post(base, body)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(base, body)).statusCode).toBe(404);
    const otherSlugBase = base.replace(`/workspaces/${w.slug}/`, `/workspaces/${w.otherSlug}/`);
    expect((await client(t.app, w.stranger).post(otherSlugBase, body)).statusCode).toBe(404);
    // The item of another project of the same workspace is not reachable through this project.
    const other = await projectWithTeam(t, w);
    const crossed = `/api/assets/v2/workspaces/${w.slug}/projects/${other.id}/issues/${issue.id}/attachments/`;
    expect((await client(t.app, w.member).post(crossed, body)).statusCode).toBe(404);
    expect(p.id).not.toBe(other.id);
    expect(await assetCount()).toBe(before);
  });
});

describe("POST /api/assets/v2/upload/ (local storage)", () => {
  it("refuses a file bigger than the signed size and leaves nothing on disk", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(10));
    const before = filesOnDisk();
    const res = await postUpload(t, requested.upload_data, png(20));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "FILE_TOO_LARGE" });
    expect(filesOnDisk()).toEqual(before);
    const confirm = await client(t.app, w.member).patch(`${base}${requested.asset_id}/`, { is_uploaded: true });
    expect(confirm.statusCode).toBe(400);
    expect((await assetRow(requested.asset_id))?.isUploaded).toBe(false);
  });

  it("refuses a file over the 5 MB ceiling", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(16), MAX_ATTACHMENT_SIZE);
    const big: FilePart = { name: "big.bin", type: "image/png", bytes: new Uint8Array(MAX_ATTACHMENT_SIZE + 1) };
    const before = filesOnDisk();
    const res = await postUpload(t, requested.upload_data, big);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: FILE_TOO_LARGE_MESSAGE });
    // A body far over the ceiling is refused on its Content-Length, before any parsing.
    const huge: FilePart = { ...big, bytes: new Uint8Array(MAX_ATTACHMENT_SIZE + 100_000) };
    const early = await postUpload(t, requested.upload_data, huge);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ error: FILE_TOO_LARGE_MESSAGE });
    expect(filesOnDisk()).toEqual(before);
  });

  it("accepts a signed form once: a replay is 409 and the first file stays", async () => {
    const { base } = await fixture();
    const first = png(32);
    const requested = await requestUpload(base, w.member, first);
    const key = requested.upload_data.fields.key ?? "";
    expect((await postUpload(t, requested.upload_data, first)).statusCode).toBe(204);
    const other: FilePart = { ...first, bytes: new Uint8Array(32).fill(0x41) };
    const replay = await postUpload(t, requested.upload_data, other);
    expect(replay.statusCode, replay.body).toBe(409);
    expect(replay.json()).toMatchObject({
      code: "UPLOAD_ALREADY_USED",
      error: expect.stringMatching(/already been used/),
    });
    expect(new Uint8Array(readFileSync(path.join(uploadsDir, key)))).toEqual(first.bytes);
    // Still refused once confirmed.
    const confirmed = await client(t.app, w.member).patch(`${base}${requested.asset_id}/`, { is_uploaded: true });
    expect(confirmed.statusCode).toBe(200);
    expect((await postUpload(t, requested.upload_data, other)).statusCode).toBe(409);
    expect(new Uint8Array(readFileSync(path.join(uploadsDir, key)))).toEqual(first.bytes);
  });

  it("lets exactly one of two concurrent posts of one form through", async () => {
    const { base } = await fixture();
    const a = png(64);
    const b: FilePart = { ...a, bytes: new Uint8Array(64).fill(0x42) };
    const requested = await requestUpload(base, w.member, a);
    const key = requested.upload_data.fields.key ?? "";
    const answers = await Promise.all([
      postUpload(t, requested.upload_data, a),
      postUpload(t, requested.upload_data, b),
    ]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([204, 409]);
    const winner = answers[0]?.statusCode === 204 ? a : b;
    expect(new Uint8Array(readFileSync(path.join(uploadsDir, key)))).toEqual(winner.bytes);
  });

  it("gives the form back after a failed post, and refuses a form of a deleted upload", async () => {
    const { base } = await fixture();
    const file = png(16);
    const requested = await requestUpload(base, w.member, file);
    expect((await postUpload(t, requested.upload_data, png(40))).statusCode).toBe(400);
    expect((await postUpload(t, requested.upload_data, file)).statusCode).toBe(204);

    const cancelled = await requestUpload(base, w.member, file);
    const del = await client(t.app, w.member).delete(`${base}${cancelled.asset_id}/`);
    expect(del.statusCode).toBe(204);
    const late = await postUpload(t, cancelled.upload_data, file);
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe("UPLOAD_REFUSED");
    expect(existsSync(path.join(uploadsDir, cancelled.upload_data.fields.key ?? ""))).toBe(false);
  });

  it("refuses a tampered signature, key or size, and a missing signature", async () => {
    const { base } = await fixture();
    const file = png(32);
    const requested = await requestUpload(base, w.member, file);
    const fields = requested.upload_data.fields;
    const before = filesOnDisk();
    const signature = fields.signature ?? "";
    const variants: Record<string, string>[] = [
      { ...fields, signature: `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}` },
      { ...fields, max_size: "999999" },
      { ...fields, key: `${w.workspaceId}/00000000-0000-4000-8000-000000000000` },
      { ...fields, content_type: "text/html" },
      { ...fields, expires: String(Number(fields.expires) + 3600) },
      { key: fields.key ?? "", expires: fields.expires ?? "", content_type: "image/png", max_size: "32" },
    ];
    for (const changed of variants) {
      const res = await postUpload(t, requested.upload_data, file, { fields: changed });
      expect(res.statusCode, JSON.stringify(changed)).toBe(400);
      expect(res.json().code).toBe("UPLOAD_REFUSED");
    }
    expect(filesOnDisk()).toEqual(before);
  });

  it("refuses an expired signature", async () => {
    const { base } = await fixture();
    const file = png(32);
    const requested = await requestUpload(base, w.member, file);
    const key = requested.upload_data.fields.key ?? "";
    // The same secret and folder, but a clock an hour behind: its signatures have expired.
    const config = t.app.ctx.config;
    const past = new LocalStorage({
      dir: uploadsDir,
      secretKey: config.secretKey,
      uploadUrl: requested.upload_data.url,
      now: () => Date.now() - 3600_000,
    });
    const expired = await past.createUpload(key, { maxSize: 32, contentType: "image/png" });
    const res = await postUpload(t, expired, file);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/expired/);
    expect(existsSync(path.join(uploadsDir, key))).toBe(false);
  });

  it("refuses a post without a file, a non-multipart body, and one from no origin", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(8));
    const noFile = await multipartBody(requested.upload_data.fields);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/assets/v2/upload/",
      payload: noFile.payload,
      headers: { "content-type": noFile.contentType, origin: ORIGIN },
    });
    expect(res.statusCode).toBe(400);
    const json = await t.app.inject({
      method: "POST",
      url: "/api/assets/v2/upload/",
      payload: requested.upload_data.fields,
      headers: { origin: ORIGIN },
    });
    expect(json.statusCode).toBe(400);
    // Browsers always send Origin on a POST; without it (or from another site) the app refuses.
    expect((await postUpload(t, requested.upload_data, png(8), { origin: null })).statusCode).toBe(403);
    expect((await postUpload(t, requested.upload_data, png(8), { origin: "https://evil.example" })).statusCode).toBe(
      403,
    );
  });

  it("ignores a file sent under another field name (only `file` counts)", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(8));
    const body = await multipartBody(requested.upload_data.fields, png(8), "document");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/assets/v2/upload/",
      payload: body.payload,
      headers: { "content-type": body.contentType, origin: ORIGIN },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe("PATCH …/attachments/:id/ (upload status)", () => {
  it("is 400 before the file is there, 403 for someone else, 400 on a bad body", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(8));
    const url = `${base}${requested.asset_id}/`;
    expect((await client(t.app, w.member).patch(url, { is_uploaded: true })).json()).toMatchObject({
      code: "UPLOAD_MISSING",
    });
    await postUpload(t, requested.upload_data, png(8));
    expect((await client(t.app, w.admin).patch(url, { is_uploaded: true })).statusCode).toBe(403);
    expect((await client(t.app, w.guest).patch(url, { is_uploaded: true })).statusCode).toBe(403);
    expect((await client(t.app, null).patch(url, { is_uploaded: true })).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).patch(url, { is_uploaded: true })).statusCode).toBe(404);
    for (const body of [{}, { is_uploaded: false }, { is_uploaded: "true" }]) {
      expect((await client(t.app, w.member).patch(url, body)).statusCode).toBe(400);
    }
    expect((await assetRow(requested.asset_id))?.isUploaded).toBe(false);
    expect((await client(t.app, w.member).patch(url, { is_uploaded: true })).statusCode).toBe(200);
  });

  it("deletes and refuses a stored file bigger than declared", async () => {
    const { base } = await fixture();
    const requested = await requestUpload(base, w.member, png(8));
    const row = await assetRow(requested.asset_id);
    const file = path.join(uploadsDir, row?.storageKey ?? "-");
    // Something bigger reached the storage by another way than our signed upload.
    await postUpload(t, requested.upload_data, png(8));
    writeFileSync(file, new Uint8Array(100));
    const res = await client(t.app, w.member).patch(`${base}${requested.asset_id}/`, { is_uploaded: true });
    expect(res.statusCode).toBe(400);
    expect(existsSync(file)).toBe(false);
    expect((await assetRow(requested.asset_id))?.isUploaded).toBe(false);
  });

  it("is 404 for an attachment of another work item", async () => {
    const { p, base } = await fixture();
    const requested = await attach(base, w.member, png(8));
    const second = await insertIssue(t, p.id, w.member);
    const otherBase = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/issues/${second.id}/attachments/`;
    expect(
      (await client(t.app, w.member).patch(`${otherBase}${requested.asset_id}/`, { is_uploaded: true })).statusCode,
    ).toBe(404);
    expect((await client(t.app, w.member).delete(`${otherBase}${requested.asset_id}/`)).statusCode).toBe(404);
  });
});

describe("DELETE …/attachments/:id/", () => {
  it("lets the uploader and a project admin delete, not another member or a guest", async () => {
    const { p, base } = await fixture();
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, p.id));
    const byAdmin = await attach(base, w.admin, png(8));
    const byMember = await attach(base, w.member, png(8));
    const otherMember = await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/projects/${p.id}/members/`, {
      members: [{ member_id: w.outsider.id, role: 15 }],
    });
    expect(otherMember.statusCode, otherMember.body).toBe(201);
    expect((await client(t.app, w.outsider).delete(`${base}${byAdmin.asset_id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).delete(`${base}${byAdmin.asset_id}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(`${base}${byAdmin.asset_id}/`)).statusCode).toBe(404);
    expect((await client(t.app, null).delete(`${base}${byAdmin.asset_id}/`)).statusCode).toBe(401);
    expect((await assetRow(byAdmin.asset_id))?.deletedAt).toBeNull();
    expect((await client(t.app, w.admin).delete(`${base}${byMember.asset_id}/`)).statusCode).toBe(204);
    expect((await client(t.app, w.admin).delete(`${base}${byAdmin.asset_id}/`)).statusCode).toBe(204);
  });

  it("cancels an upload never confirmed without history or events", async () => {
    const { issue, base } = await fixture();
    const requested = await requestUpload(base, w.member, png(8));
    events.length = 0;
    expect((await client(t.app, w.member).delete(`${base}${requested.asset_id}/`)).statusCode).toBe(204);
    expect(events).toEqual([]);
    const history = await t.db.select().from(issueActivities).where(eq(issueActivities.issueId, issue.id));
    expect(history).toEqual([]);
  });
});

describe("reading attachments", () => {
  it("is 404 for people outside the project or the workspace, 401 anonymous", async () => {
    const { base } = await fixture();
    const { attachment } = await attach(base, w.member, png(8));
    expect((await client(t.app, w.member).get(attachment.asset_url)).statusCode).toBe(200);
    expect((await client(t.app, w.outsider).get(attachment.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(attachment.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, null).get(attachment.asset_url)).statusCode).toBe(401);
    // Through the stranger's own workspace slug, or as a workspace-level asset: still nothing.
    expect((await client(t.app, w.stranger).get(attachment.asset_url.replace(w.slug, w.otherSlug))).statusCode).toBe(
      404,
    );
    const wsUrl = `/api/assets/v2/workspaces/${w.slug}/${attachment.id}/`;
    expect((await client(t.app, w.member).get(wsUrl)).statusCode).toBe(404);
    expect((await client(t.app, w.outsider).get(base)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(base)).statusCode).toBe(404);
  });

  it("applies the guest rule: a restricted guest reads only attachments of their own items", async () => {
    const { p, base: othersBase } = await fixture(w.member);
    const own = await insertIssue(t, p.id, w.guest);
    const ownBase = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/issues/${own.id}/attachments/`;
    const others = await attach(othersBase, w.member, png(8));
    const mine = await attach(ownBase, w.member, png(8));
    expect((await client(t.app, w.guest).get(others.attachment.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.guest).get(othersBase)).statusCode).toBe(404);
    expect((await client(t.app, w.guest).get(mine.attachment.asset_url)).statusCode).toBe(200);
    expect((await client(t.app, w.guest).get(ownBase)).json()).toHaveLength(1);
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, p.id));
    expect((await client(t.app, w.guest).get(others.attachment.asset_url)).statusCode).toBe(200);
    expect((await client(t.app, w.guest).get(othersBase)).json()).toHaveLength(1);
  });

  it("serves HTML, SVG and unknown files as downloads with nosniff and a sandboxing CSP", async () => {
    const { base } = await fixture();
    const html = new TextEncoder().encode("<script>alert(document.cookie)</script>");
    for (const [name, type] of [
      ["page.html", "text/html"],
      ["logo.svg", "image/svg+xml"],
      ["data.xml", "application/xml"],
      ["run.js", "text/javascript"],
      ["mystery", ""],
    ] as const) {
      const { attachment } = await attach(base, w.member, { name, type, bytes: html });
      const res = await client(t.app, w.member).get(attachment.asset_url);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/octet-stream");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      expect(res.body).toBe("<script>alert(document.cookie)</script>");
    }
    const pdf = await attach(base, w.member, { name: "spec.pdf", type: "application/pdf", bytes: html });
    const res = await client(t.app, w.member).get(pdf.attachment.asset_url);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toMatch(/^attachment;/);
  });

  it("encodes non-ASCII names in Content-Disposition", async () => {
    const { base } = await fixture();
    const { attachment } = await attach(base, w.member, {
      name: 'Résumé "final".txt',
      type: "text/plain",
      bytes: new TextEncoder().encode("hello"),
    });
    const res = await client(t.app, w.member).get(attachment.asset_url);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="R_sum_ _final_.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.txt`,
    );
  });
});
