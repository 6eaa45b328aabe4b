/**
 * The routes with STORAGE_DRIVER=s3. No S3 server is reached: signing the upload and the
 * download URL are local computations, and the confirmed row is written directly.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { fileAssets } from "../../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { insertIssue } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp({
    STORAGE_DRIVER: "s3",
    S3_ENDPOINT: "http://minio.test:9000",
    S3_BUCKET: "uploads",
    S3_ACCESS_KEY_ID: "minio",
    S3_SECRET_ACCESS_KEY: "minio-secret-key",
  });
  w = await createWorld(t);
});
afterAll(() => t.close());

describe("attachments on S3-compatible storage", () => {
  it("hands out a presigned POST and serves downloads by redirect to a presigned GET", async () => {
    const p = await projectWithTeam(t, w);
    const issue = await insertIssue(t, p.id, w.member);
    const base = `/api/assets/v2/workspaces/${w.slug}/projects/${p.id}/issues/${issue.id}/attachments/`;
    const res = await client(t.app, w.member).post(base, { name: "page.html", type: "text/html", size: 40 });
    expect(res.statusCode, res.body).toBe(200);
    const { upload_data, asset_id, attachment } = res.json();
    expect(upload_data.url).toBe("http://minio.test:9000/uploads");
    expect(upload_data.fields).toMatchObject({ key: `${w.workspaceId}/${asset_id}`, "Content-Type": "text/html" });
    const policy = JSON.parse(Buffer.from(upload_data.fields.Policy, "base64").toString("utf8"));
    expect(policy.conditions).toContainEqual(["content-length-range", 0, 40]);

    // The local upload endpoint is not in use with S3.
    expect((await client(t.app, null).post("/api/assets/v2/upload/", {})).statusCode).toBe(404);

    await t.db.update(fileAssets).set({ isUploaded: true }).where(eq(fileAssets.id, asset_id));
    const download = await client(t.app, w.member).get(attachment.asset_url);
    expect(download.statusCode).toBe(302);
    expect(download.headers["cache-control"]).toMatch(/^private/);
    const location = new URL(String(download.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(
      `http://minio.test:9000/uploads/${w.workspaceId}/${asset_id}`,
    );
    expect(location.searchParams.get("response-content-type")).toBe("application/octet-stream");
    expect(location.searchParams.get("response-content-disposition")).toMatch(/^attachment; filename="page.html"/);
    expect(Number(location.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(300);
    expect((await client(t.app, w.outsider).get(attachment.asset_url)).statusCode).toBe(404);
  });
});
