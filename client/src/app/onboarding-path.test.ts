import { describe, expect, it } from "vitest";
import { afterOnboardingPath, keptNextPath, onboardingPath } from "./onboarding-path.ts";

describe("onboarding keeps the link a person followed", () => {
  const board = "/harbour-ops/projects/0b6c3f1e-8d5a-4c1e-9a55-3f2d7c1b9e10/issues/";

  it("carries a project link into onboarding and out again", () => {
    expect(onboardingPath(board)).toBe(`/onboarding/?next_path=${encodeURIComponent(board)}`);
    expect(afterOnboardingPath(board, "harbour-ops")).toBe(board);
    expect(afterOnboardingPath(`${board}?peekId=x`, null)).toBe(`${board}?peekId=x`);
  });

  it("lands in the workspace (or home) without a link worth keeping", () => {
    for (const next of [
      null,
      undefined,
      "",
      "/",
      "/onboarding/",
      "/onboarding/?next_path=%2Fx%2F",
      "/?next_path=%2Fx",
    ]) {
      expect(keptNextPath(next)).toBeNull();
      expect(onboardingPath(next)).toBe("/onboarding/");
      expect(afterOnboardingPath(next, "harbour-ops")).toBe("/harbour-ops/");
    }
    expect(afterOnboardingPath(null, null)).toBe("/");
  });

  it("never leaves the app: another origin is refused", () => {
    for (const next of ["//evil.test/x", "https://evil.test/", "/\\evil.test", "javascript:alert(1)"]) {
      expect(keptNextPath(next)).toBeNull();
      expect(afterOnboardingPath(next, "harbour-ops")).toBe("/harbour-ops/");
    }
  });
});
