import { describe, expect, it } from "vitest";
import {
  PRESENCE_COLOURS,
  PRESENCE_IDENTITY_FIELDS,
  presenceColour,
  presenceIdentity,
  presenceName,
  presenceUser,
} from "./presence.ts";

describe("presence", () => {
  it("names a person by handle, else full name, else e-mail (personName, as every other screen)", () => {
    expect(presenceName({ first_name: "Ada", last_name: "Lovelace", display_name: "ada", email: "a@x.io" })).toBe(
      "ada",
    );
    expect(presenceName({ first_name: " ", last_name: "", display_name: "ada", email: "a@x.io" })).toBe("ada");
    expect(presenceName({ first_name: "Ada", last_name: "Lovelace", display_name: " ", email: "a@x.io" })).toBe(
      "Ada Lovelace",
    );
    expect(presenceName({ display_name: "", email: "a@x.io" })).toBe("a@x.io");
    expect(presenceName({})).toBe("?");
  });

  it("gives each user one stable colour from the palette", () => {
    const id = "0b7e4c1a-5f1e-4a57-9d7e-3c2f1a0b9e11";
    expect(presenceColour(id)).toBe(presenceColour(id));
    expect(PRESENCE_COLOURS).toContain(presenceColour(id));
    expect(presenceUser({ id, first_name: "Ada", last_name: "L" })).toEqual({
      name: "Ada L",
      color: presenceColour(id),
    });
  });

  it("gives every identity field of an awareness state", () => {
    const id = "0b7e4c1a-5f1e-4a57-9d7e-3c2f1a0b9e11";
    const identity = presenceIdentity({ id, first_name: "Ada", last_name: "L" });
    expect(identity).toEqual({
      user: { id, name: "Ada L", color: presenceColour(id) },
      name: "Ada L",
      color: presenceColour(id),
    });
    expect(Object.keys(identity).sort()).toEqual([...PRESENCE_IDENTITY_FIELDS].sort());
  });
});
