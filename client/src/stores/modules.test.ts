import { describe, expect, it } from "vitest";
import { normalizeLinkUrl } from "./modules";

describe("normalizeLinkUrl (module links: http(s) only, as the server)", () => {
  it("keeps http and https URLs", () => {
    expect(normalizeLinkUrl("https://figma.com/file/1")).toBe("https://figma.com/file/1");
    expect(normalizeLinkUrl("  http://example.org/a?b=1 ")).toBe("http://example.org/a?b=1");
  });
  it("adds https:// to a bare host", () => {
    expect(normalizeLinkUrl("docs.example.com/spec")).toBe("https://docs.example.com/spec");
  });
  it("refuses other schemes, empty text and hosts that aren't", () => {
    expect(normalizeLinkUrl("javascript:alert(1)")).toBeNull();
    expect(normalizeLinkUrl("ftp://example.com/file")).toBeNull();
    expect(normalizeLinkUrl("   ")).toBeNull();
    expect(normalizeLinkUrl("not a url")).toBeNull();
  });
});
