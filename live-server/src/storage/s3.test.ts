import { describe, expect, it } from "vitest";
import { S3Storage } from "./s3.ts";

const config = {
  endpoint: "http://minio.local:9000",
  region: "eu-central-1",
  bucket: "tideline",
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};

type Policy = { expiration: string; conditions: unknown[] };

describe("S3Storage.createUpload (no network: the presigned POST is computed locally)", () => {
  it("pins key, Content-Type and size range in the signed policy", async () => {
    const storage = new S3Storage(config);
    const before = Date.now();
    const upload = await storage.createUpload("ws-1/asset-1", { maxSize: 1234, contentType: "image/png" });

    // An endpoint means MinIO-style path addressing: the bucket is in the path.
    expect(upload.url).toBe("http://minio.local:9000/tideline");
    expect(upload.fields).toMatchObject({
      key: "ws-1/asset-1",
      "Content-Type": "image/png",
      bucket: "tideline",
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Credential": expect.stringMatching(/^AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request$/),
      "X-Amz-Signature": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(upload)).not.toContain(config.secretAccessKey);

    const policy = JSON.parse(Buffer.from(upload.fields.Policy ?? "", "base64").toString("utf8")) as Policy;
    expect(policy.conditions).toContainEqual(["content-length-range", 0, 1234]);
    expect(policy.conditions).toContainEqual(["eq", "$Content-Type", "image/png"]);
    expect(policy.conditions).toContainEqual({ "Content-Type": "image/png" });
    expect(policy.conditions).toContainEqual({ key: "ws-1/asset-1" });
    expect(policy.conditions).toContainEqual({ bucket: "tideline" });
    // Ten minutes by default.
    const expires = Date.parse(policy.expiration) - before;
    expect(expires).toBeGreaterThan(595_000);
    expect(expires).toBeLessThan(605_000);
  });

  it("honours a custom lifetime, and uses virtual-host addressing on AWS itself", async () => {
    const storage = new S3Storage({ ...config, endpoint: undefined, region: "us-east-1" });
    const upload = await storage.createUpload("k", { maxSize: 1, contentType: "application/pdf", expiresIn: 60 });
    expect(upload.url).toBe("https://tideline.s3.us-east-1.amazonaws.com/");
    const policy = JSON.parse(Buffer.from(upload.fields.Policy ?? "", "base64").toString("utf8")) as Policy;
    expect(Date.parse(policy.expiration) - Date.now()).toBeLessThan(61_000);
  });

  it("refuses unsafe keys", async () => {
    const storage = new S3Storage(config);
    for (const key of ["../x", "a/../b", "/abs", "", "a//b", "a b"]) {
      await expect(storage.createUpload(key, { maxSize: 1, contentType: "image/png" })).rejects.toThrow(/Unsafe/);
    }
  });
});

describe("S3Storage.downloadUrl", () => {
  it("presigns a short-lived GET that overrides the response headers", async () => {
    const storage = new S3Storage(config);
    const url = new URL(
      await storage.downloadUrl("ws-1/asset-1", {
        contentType: "application/octet-stream",
        contentDisposition: 'attachment; filename="page.html"',
        cacheControl: "private, max-age=240",
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe("http://minio.local:9000/tideline/ws-1/asset-1");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("response-content-type")).toBe("application/octet-stream");
    expect(url.searchParams.get("response-content-disposition")).toBe('attachment; filename="page.html"');
    expect(url.searchParams.get("response-cache-control")).toBe("private, max-age=240");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });
});
