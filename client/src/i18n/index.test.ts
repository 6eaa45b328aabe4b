import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TRANSLATED_LANGUAGES } from "./index.ts";

describe("the interface languages offered", () => {
  it("are exactly the languages with a locale file", () => {
    const files = readdirSync(fileURLToPath(new URL("./locales/", import.meta.url)))
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length))
      .sort();
    expect([...TRANSLATED_LANGUAGES].sort()).toEqual(files);
    expect(TRANSLATED_LANGUAGES).toContain("en");
  });
});
