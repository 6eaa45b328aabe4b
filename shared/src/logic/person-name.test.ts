import { describe, expect, it } from "vitest";
import { presenceName } from "../live/presence.ts";
import { personFullName, personName } from "./person-name.ts";

const ada = { display_name: "ada", first_name: "Ada", last_name: "Lovelace", email: "ada@acme.test" };

describe("how people are named", () => {
  it("in passing by their display name; where introduced by their full name", () => {
    expect(personName(ada)).toBe("ada");
    expect(personFullName(ada)).toBe("Ada Lovelace");
  });

  it("each falls back to the other, then to the e-mail", () => {
    expect(personName({ ...ada, display_name: "" })).toBe("Ada Lovelace");
    expect(personFullName({ ...ada, first_name: "", last_name: " " })).toBe("ada");
    expect(personName({ email: "x@acme.test" })).toBe("x@acme.test");
    expect(personFullName({ display_name: null, first_name: null, email: null })).toBe("?");
  });

  it("a caret on a live document carries the same name as every other place", () => {
    expect(presenceName(ada)).toBe(personName(ada));
  });
});
