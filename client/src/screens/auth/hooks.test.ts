import { describe, expect, it } from "vitest";
import { authLink, invitationFromNextPath } from "./hooks";

describe("invitationFromNextPath", () => {
  it("reads the invitation id and token of the invitation landing page a sign-up returns to", () => {
    const landing = "/workspace-invitations/?invitation_id=abc&email=a%40b.c&slug=acme&token=s3cr3t-_";
    expect(invitationFromNextPath(landing)).toEqual({ id: "abc", token: "s3cr3t-_" });
    // The way the landing page builds its sign-up link, and the auth screens read it back.
    const link = new URL(authLink("/sign-up/", "a@b.c", landing), "http://x.invalid");
    expect(invitationFromNextPath(link.searchParams.get("next_path"))).toEqual({ id: "abc", token: "s3cr3t-_" });
  });

  it("is null for anything else: no next_path, another page, or a link without its token", () => {
    expect(invitationFromNextPath(null)).toBeNull();
    expect(invitationFromNextPath("/acme/projects/?invitation_id=abc&token=t")).toBeNull();
    expect(invitationFromNextPath("/workspace-invitations/?invitation_id=abc&slug=acme")).toBeNull();
  });
});
