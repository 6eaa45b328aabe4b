import { describe, expect, it } from "vitest";
import { newInviteRow, validateInviteRows } from "./invite-validation";

const messages = { invalid: "bad", duplicate: "twice" };
const row = (email: string, role = 15) => ({ ...newInviteRow(role), email });

describe("validateInviteRows", () => {
  it("sends the filled rows, lower-cased and trimmed, and ignores blank ones", () => {
    const result = validateInviteRows([row(" Grace@Example.com "), row(""), row("linus@example.com", 5)], messages);
    expect(result.entries).toEqual([
      { email: "grace@example.com", role: 15 },
      { email: "linus@example.com", role: 5 },
    ]);
    expect(result.rows.every((r) => r.error === undefined)).toBe(true);
  });

  it("marks an invalid address on its row and sends nothing", () => {
    const result = validateInviteRows([row("grace@example.com"), row("not-an-email")], messages);
    expect(result.entries).toEqual([]);
    expect(result.rows.map((r) => r.error)).toEqual([undefined, "bad"]);
  });

  it("marks the second copy of an address as a duplicate", () => {
    const result = validateInviteRows([row("a@example.com"), row("A@example.com")], messages);
    expect(result.entries).toEqual([]);
    expect(result.rows.map((r) => r.error)).toEqual([undefined, "twice"]);
  });

  it("gives each new row its own key", () => {
    expect(newInviteRow().key).not.toBe(newInviteRow().key);
  });
});
