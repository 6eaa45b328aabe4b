import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, type TestApp } from "../../../test/harness.ts";
import { timezoneOptions } from "./timezones.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Option = { utc_offset: string; gmt_offset: string; value: string; label: string };

describe("GET /api/timezones/", () => {
  it("lists every zone with its current offset, in the reference's shape and order", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).get("/api/timezones/");
    expect(res.statusCode, res.body).toBe(200);
    const list = (res.json() as { timezones: Option[] }).timezones;
    expect(list.length).toBeGreaterThan(300);
    const byValue = new Map(list.map((o) => [o.value, o]));
    expect(byValue.get("Asia/Kolkata")).toEqual({
      utc_offset: "UTC+05:30",
      gmt_offset: "GMT+05:30",
      value: "Asia/Kolkata",
      label: "Kolkata",
    });
    expect(byValue.get("Asia/Kathmandu")?.utc_offset).toBe("UTC+05:45");
    expect(byValue.get("UTC")?.utc_offset).toBe("UTC+00:00");
    expect(byValue.get("America/Argentina/Buenos_Aires")).toMatchObject({
      utc_offset: "UTC-03:00",
      label: "Buenos Aires (Argentina)",
    });
    // Current names, not ICU's former ones; every value is a zone the server accepts.
    for (const old of ["Asia/Calcutta", "Europe/Kiev", "Asia/Saigon"]) expect(byValue.has(old)).toBe(false);
    expect(byValue.has("Europe/Kyiv")).toBe(true);
    for (const o of list) expect(() => new Intl.DateTimeFormat("en", { timeZone: o.value })).not.toThrow();
    expect(new Set(list.map((o) => o.value)).size).toBe(list.length);
    // Sorted by offset (west to east), then label.
    const minutes = (o: Option) => {
      const [, sign, h, m] = /UTC([+-])(\d\d):(\d\d)/.exec(o.utc_offset) ?? [];
      return (sign === "-" ? -1 : 1) * (Number(h) * 60 + Number(m));
    };
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1] as Option;
      const b = list[i] as Option;
      expect(minutes(a) < minutes(b) || (minutes(a) === minutes(b) && a.label.localeCompare(b.label) <= 0)).toBe(true);
    }
  });

  it("is public like the reference's (no workspace data in it)", async () => {
    const res = await client(t.app).get("/api/timezones/");
    expect(res.statusCode).toBe(200);
    expect((res.json() as { timezones: Option[] }).timezones.length).toBeGreaterThan(300);
  });

  it("follows daylight saving: New York is UTC-05:00 in January and UTC-04:00 in July", () => {
    const at = (iso: string) => timezoneOptions(new Date(iso)).find((o) => o.value === "America/New_York");
    expect(at("2026-01-15T12:00:00Z")?.utc_offset).toBe("UTC-05:00");
    expect(at("2026-07-15T12:00:00Z")?.gmt_offset).toBe("GMT-04:00");
  });
});
