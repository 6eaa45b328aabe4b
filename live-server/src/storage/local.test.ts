import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { FileTooLargeError, LocalStorage } from "./local.ts";

const madeDirs: string[] = [];
afterAll(() => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

const secretKey = "local-storage-test-secret-0123456789abcdef";
const make = (now?: () => number) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tideline-storage-"));
  madeDirs.push(dir);
  return new LocalStorage({ dir, secretKey, uploadUrl: "http://localhost:3000/api/assets/v2/upload/", now });
};
const bytes = (n: number) => Readable.from([Buffer.alloc(n, 7)]);

describe("LocalStorage", () => {
  it("signs uploads it can verify, and refuses any change to the signed fields", async () => {
    const storage = make();
    const { url, fields } = await storage.createUpload("ws/a1", { maxSize: 10, contentType: "image/png" });
    expect(url).toBe("http://localhost:3000/api/assets/v2/upload/");
    expect(storage.verifyUpload(fields)).toEqual({ key: "ws/a1", maxSize: 10, contentType: "image/png" });
    for (const change of [{ key: "ws/a2" }, { max_size: "11" }, { content_type: "text/html" }, { signature: "x" }]) {
      expect(storage.verifyUpload({ ...fields, ...change })).toHaveProperty("error");
    }
    expect(storage.verifyUpload({ ...fields, signature: undefined })).toHaveProperty("error");
    // Another secret, another signature.
    const other = new LocalStorage({ dir: storage.root, secretKey: `${secretKey}!`, uploadUrl: url });
    expect(other.verifyUpload(fields)).toHaveProperty("error");
  });

  it("refuses an expired signature", async () => {
    let now = Date.now();
    const storage = make(() => now);
    const { fields } = await storage.createUpload("ws/a1", { maxSize: 10, contentType: "image/png", expiresIn: 60 });
    now += 59_000;
    expect(storage.verifyUpload(fields)).not.toHaveProperty("error");
    now += 2_000;
    expect(storage.verifyUpload(fields)).toEqual({ error: expect.stringMatching(/expired/) });
  });

  it("writes, measures, reads and deletes a file", async () => {
    const storage = make();
    expect(await storage.stat("ws/a1")).toBeNull();
    expect(await storage.open("ws/a1")).toBeNull();
    expect(await storage.write("ws/a1", bytes(10), 10)).toEqual({ size: 10 });
    expect(await storage.stat("ws/a1")).toEqual({ size: 10 });
    const opened = await storage.open("ws/a1");
    expect(opened?.size).toBe(10);
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.alloc(10, 7));
    expect(readFileSync(path.join(storage.root, "ws", "a1"))).toHaveLength(10);
    expect(await storage.downloadUrl()).toBeNull();
    await storage.delete("ws/a1");
    await storage.delete("ws/a1");
    expect(await storage.stat("ws/a1")).toBeNull();
  });

  it("refuses more bytes than allowed and leaves nothing behind", async () => {
    const storage = make();
    await expect(storage.write("ws/a1", bytes(11), 10)).rejects.toBeInstanceOf(FileTooLargeError);
    expect(existsSync(path.join(storage.root, "ws", "a1"))).toBe(false);
    expect(readdirSync(path.join(storage.root, "ws"))).toEqual([]);
  });

  it("never touches a path outside its folder", async () => {
    const storage = make();
    for (const key of ["../escape", "ws/../../escape", "/etc/passwd", "ws/./a", "ws\\a", ".", ""]) {
      await expect(storage.write(key, bytes(1), 1)).rejects.toThrow(/Unsafe/);
      await expect(storage.createUpload(key, { maxSize: 1, contentType: "image/png" })).rejects.toThrow(/Unsafe/);
    }
    expect(existsSync(path.join(storage.root, "..", "escape"))).toBe(false);
  });
});
