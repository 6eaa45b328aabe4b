import { ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { fileAssets, projects } from "../../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { type FilePart, insertIssue, png, postUpload, type UploadData } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

type Requested = { upload_data: UploadData; asset_id: string; asset_url: string };

const wsBase = () => `/api/assets/v2/workspaces/${w.slug}/`;
const assetRow = async (id: string) => (await t.db.select().from(fileAssets).where(eq(fileAssets.id, id)))[0];
const assetCount = async () => (await t.db.select({ id: fileAssets.id }).from(fileAssets)).length;

/** Request, upload and confirm an asset at `base` (the PATCH goes to its own asset URL). */
async function upload(base: string, user: TestUser, file: FilePart, extra: Record<string, unknown>) {
  const res = await client(t.app, user).post(base, {
    name: file.name,
    type: file.type,
    size: file.bytes.length,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  const requested = res.json() as Requested;
  expect((await postUpload(t, requested.upload_data, file)).statusCode).toBe(204);
  const confirmed = await client(t.app, user).patch(requested.asset_url, { is_uploaded: true });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return requested;
}

describe("workspace assets", () => {
  it("uploads a workspace logo (admin), readable by every member, not by others", async () => {
    const file = png(100);
    const requested = await upload(wsBase(), w.admin, file, { entity_type: "WORKSPACE_LOGO" });
    expect(requested.asset_url).toBe(`/api/assets/v2/workspaces/${w.slug}/${requested.asset_id}/`);
    expect(await assetRow(requested.asset_id)).toMatchObject({
      entityType: "WORKSPACE_LOGO",
      entityIdentifier: w.workspaceId,
      projectId: null,
      isUploaded: true,
    });
    for (const user of [w.admin, w.member, w.guest, w.outsider]) {
      const res = await client(t.app, user).get(requested.asset_url);
      expect(res.statusCode).toBe(200);
      expect(new Uint8Array(res.rawPayload)).toEqual(file.bytes);
      expect(res.headers["content-type"]).toBe("image/png");
    }
    expect((await client(t.app, w.stranger).get(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, null).get(requested.asset_url)).statusCode).toBe(401);
    const viaOther = requested.asset_url.replace(w.slug, w.otherSlug);
    expect((await client(t.app, w.stranger).get(viaOther)).statusCode).toBe(404);
  });

  it("checks role by kind, refuses kinds that belong elsewhere and non-images", async () => {
    const before = await assetCount();
    const body = { name: "a.png", type: "image/png", size: 10 };
    expect((await client(t.app, w.member).post(wsBase(), { ...body, entity_type: "WORKSPACE_LOGO" })).statusCode).toBe(
      403,
    );
    expect((await client(t.app, w.guest).post(wsBase(), { ...body, entity_type: "PROJECT_COVER" })).statusCode).toBe(
      403,
    );
    expect((await client(t.app, w.stranger).post(wsBase(), { ...body, entity_type: "PROJECT_COVER" })).statusCode).toBe(
      404,
    );
    expect((await client(t.app, null).post(wsBase(), { ...body, entity_type: "PROJECT_COVER" })).statusCode).toBe(401);
    for (const bad of [
      { ...body, entity_type: "ISSUE_ATTACHMENT" },
      { ...body, entity_type: "USER_AVATAR" },
      { ...body, entity_type: "SOMETHING" },
      { ...body, entity_type: "WORKSPACE_LOGO", type: "image/svg+xml" },
      { ...body, entity_type: "WORKSPACE_LOGO", type: "text/html" },
      { ...body, entity_type: "WORKSPACE_LOGO", size: 5_242_881 },
      { ...body, entity_type: "WORKSPACE_LOGO", entity_identifier: "nope" },
      { ...body },
    ]) {
      const res = await client(t.app, w.admin).post(wsBase(), bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await assetCount()).toBe(before);
    // A guest may add images to comments.
    expect(
      (await client(t.app, w.guest).post(wsBase(), { ...body, entity_type: "COMMENT_DESCRIPTION" })).statusCode,
    ).toBe(200);
  });

  it("lets only the uploader confirm, and the uploader or an admin delete", async () => {
    const res = await client(t.app, w.member).post(wsBase(), {
      name: "cover.webp",
      type: "image/webp",
      size: 8,
      entity_type: "PROJECT_COVER",
    });
    const requested = res.json() as Requested;
    const file: FilePart = { name: "cover.webp", type: "image/webp", bytes: new Uint8Array(8) };
    expect((await client(t.app, w.member).patch(requested.asset_url, { is_uploaded: true })).statusCode).toBe(400);
    await postUpload(t, requested.upload_data, file);
    expect((await client(t.app, w.admin).patch(requested.asset_url, { is_uploaded: true })).statusCode).toBe(403);
    expect((await client(t.app, w.member).patch(requested.asset_url, { is_uploaded: false })).statusCode).toBe(400);
    expect((await client(t.app, w.member).patch(requested.asset_url, { is_uploaded: true })).statusCode).toBe(200);
    expect((await client(t.app, w.outsider).delete(requested.asset_url)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(requested.asset_url)).statusCode).toBe(204);
    expect((await client(t.app, w.member).get(requested.asset_url)).statusCode).toBe(404);
    expect((await assetRow(requested.asset_id))?.deletedAt).toBeInstanceOf(Date);
  });
});

describe("project assets", () => {
  it("stores description images in the project, readable by its members only", async () => {
    const p = await projectWithTeam(t, w);
    const issue = await insertIssue(t, p.id, w.member);
    const base = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/`;
    const requested = await upload(base, w.member, png(32), {
      entity_type: "ISSUE_DESCRIPTION",
      entity_identifier: issue.id,
    });
    expect(requested.asset_url).toBe(`${base}${requested.asset_id}/`);
    expect((await client(t.app, w.admin).get(requested.asset_url)).statusCode).toBe(200);
    expect((await client(t.app, w.outsider).get(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(requested.asset_url)).statusCode).toBe(404);
    // A restricted guest does not see images of items they cannot see.
    expect((await client(t.app, w.guest).get(requested.asset_url)).statusCode).toBe(404);
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, p.id));
    expect((await client(t.app, w.guest).get(requested.asset_url)).statusCode).toBe(200);
  });

  it("refuses a description image for a work item of another project, and guests' item images", async () => {
    const p = await projectWithTeam(t, w);
    const other = await projectWithTeam(t, w);
    const foreign = await insertIssue(t, other.id, w.member);
    const base = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/`;
    const body = { name: "a.png", type: "image/png", size: 10, entity_type: "ISSUE_DESCRIPTION" };
    const before = await assetCount();
    expect((await client(t.app, w.member).post(base, { ...body, entity_identifier: foreign.id })).statusCode).toBe(404);
    expect((await client(t.app, w.guest).post(base, body)).statusCode).toBe(403);
    expect((await client(t.app, w.outsider).post(base, body)).statusCode).toBe(404);
    expect((await client(t.app, w.member).post(base, { ...body, entity_type: "PROJECT_COVER" })).statusCode).toBe(403);
    expect((await client(t.app, w.member).post(base, { ...body, entity_type: "WORKSPACE_LOGO" })).statusCode).toBe(400);
    expect(await assetCount()).toBe(before);
  });

  it("keeps a project cover workspace-wide, so the projects list can show it to everyone", async () => {
    const p = await projectWithTeam(t, w);
    const base = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/`;
    const requested = await upload(base, w.admin, png(16), { entity_type: "PROJECT_COVER" });
    expect(requested.asset_url).toBe(`/api/assets/v2/workspaces/${w.slug}/${requested.asset_id}/`);
    expect(await assetRow(requested.asset_id)).toMatchObject({ projectId: null, entityIdentifier: p.id });
    expect((await client(t.app, w.outsider).get(requested.asset_url)).statusCode).toBe(200);
  });
});

describe("user assets", () => {
  it("uploads an avatar readable by its owner and people sharing a workspace", async () => {
    const loner = await createUser(t.db);
    const file = png(48);
    const requested = await upload("/api/assets/v2/user-assets/", w.member, file, { entity_type: "USER_AVATAR" });
    expect(requested.asset_url).toBe(`/api/assets/v2/user-assets/${requested.asset_id}/`);
    expect(await assetRow(requested.asset_id)).toMatchObject({ workspaceId: null, entityIdentifier: w.member.id });
    for (const user of [w.member, w.admin, w.guest]) {
      const res = await client(t.app, user).get(requested.asset_url);
      expect(res.statusCode).toBe(200);
      expect(new Uint8Array(res.rawPayload)).toEqual(file.bytes);
    }
    expect((await client(t.app, loner).get(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, null).get(requested.asset_url)).statusCode).toBe(401);
    // Once they share a workspace, the stranger sees it too.
    await createWorkspace(t.db, w.stranger, [{ user: w.member, role: ROLE.member }]);
    expect((await client(t.app, w.stranger).get(requested.asset_url)).statusCode).toBe(200);
    expect((await client(t.app, w.admin).patch(requested.asset_url, { is_uploaded: true })).statusCode).toBe(404);
    expect((await client(t.app, w.admin).delete(requested.asset_url)).statusCode).toBe(404);
    expect((await client(t.app, w.member).delete(requested.asset_url)).statusCode).toBe(204);
    expect((await client(t.app, w.member).get(requested.asset_url)).statusCode).toBe(404);
  });

  it("refuses other kinds, non-images and files over 5 MB", async () => {
    const before = await assetCount();
    for (const bad of [
      { name: "a.png", type: "image/png", size: 10, entity_type: "WORKSPACE_LOGO" },
      { name: "a.svg", type: "image/svg+xml", size: 10, entity_type: "USER_AVATAR" },
      { name: "a.png", type: "image/png", size: 5_242_881, entity_type: "USER_COVER" },
    ]) {
      expect((await client(t.app, w.member).post("/api/assets/v2/user-assets/", bad)).statusCode).toBe(400);
    }
    expect((await client(t.app, null).post("/api/assets/v2/user-assets/", {})).statusCode).toBe(401);
    expect(await assetCount()).toBe(before);
  });
});
