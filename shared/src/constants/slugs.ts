/** Workspace slugs that would collide with the app's own routes (product-domain §2). */
export const RESERVED_WORKSPACE_SLUGS: ReadonlySet<string> = new Set([
  "404",
  "accounts",
  "api",
  "create-workspace",
  "god-mode",
  "installations",
  "invitations",
  "onboarding",
  "profile",
  "spaces",
  "workspace-invitations",
  "password",
  "flags",
  "monitor",
  "monitoring",
  "ingest",
  "sign-in",
  "sign-up",
  "signin",
  "signup",
  "config",
  "live",
  "admin",
  "m",
  "import",
  "importers",
  "integrations",
  "integration",
  "configuration",
  "initiatives",
  "initiative",
  "workflow",
  "workflows",
  "epics",
  "epic",
  "story",
  "mobile",
  "dashboard",
  "desktop",
  "onload",
  "real-time",
  "one",
  "pages",
  "business",
  "pro",
  "settings",
  "license",
  "licenses",
  "instances",
  "instance",
  "billing",
  "upgrade",
  "calendar",
  "drive",
  "channels",
  "chat",
  "silo",
  "disco",
  "enterprise",
  "tideline-pro",
  "tideline-business",
  "tideline-enterprise",
  "auth",
  "assets",
  "static",
  "accounts",
  "reset-password",
  "forgot-password",
  "set-password",
  "create-workspace",
  "invitations",
]);

/** A slug is lowercase letters, digits and dashes, 1–48 chars, no leading/trailing dash. */
export const WORKSPACE_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

/** Derive a URL slug from a workspace name ("Acme Inc." → "acme-inc"). */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
}
