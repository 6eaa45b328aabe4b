/** Request bodies of the workspace, invitation and member routes. Unknown fields are ignored (http/errors.ts). */
import { isRole, isValidEmail, normalizeEmail, ORGANIZATION_SIZES, ROLE, type Role } from "@tideline/shared";
import { z } from "zod";

const role = z
  .number({ error: "Role must be 20 (admin), 15 (member) or 5 (guest)." })
  .refine((value): value is Role => isRole(value), "Role must be 20 (admin), 15 (member) or 5 (guest).")
  .transform((value) => value as Role);

export const workspaceName = z
  .string()
  .trim()
  .min(1, "Workspace name is required.")
  .max(80, "Workspace name can have at most 80 characters.");

const organizationSize = z.enum(ORGANIZATION_SIZES, {
  error: `Organization size must be one of: ${ORGANIZATION_SIZES.join(", ")}.`,
});

/** An image address: an uploaded asset path of this server, or an http(s) URL. Never `javascript:`. */
export const imageUrl = z
  .string()
  .trim()
  .max(2048, "The address is too long.")
  .refine(
    (value) => /^\/(?!\/)/.test(value) || /^https?:\/\/[^\s]+$/i.test(value),
    "Use an uploaded image or an http(s) address.",
  );

/** The workspace logo: an emoji or an icon (product-domain §3 "Logo"). */
export const logoProps = z.object({
  in_use: z.enum(["emoji", "icon"]).optional(),
  emoji: z.object({ value: z.string().max(64).optional(), url: z.string().max(2048).optional() }).optional(),
  icon: z
    .object({
      name: z.string().max(64).optional(),
      color: z.string().max(32).optional(),
      background_color: z.string().max(32).optional(),
    })
    .optional(),
});

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const createWorkspaceBody = z.object({
  name: workspaceName,
  // Normalized and checked by the route, so a reserved or taken slug gets its own code.
  slug: z.string({ error: "Workspace URL is required." }).max(100, "The workspace URL is too long."),
  organization_size: organizationSize,
});

export const updateWorkspaceBody = z
  .object({
    name: workspaceName,
    logo_url: imageUrl.nullable(),
    logo_props: logoProps,
    organization_size: organizationSize,
    timezone: z.string().max(64).refine(isTimeZone, "Unknown time zone; use an IANA name such as Europe/Paris."),
  })
  .partial();

const inviteeEmail = z
  .string({ error: "E-mail is required." })
  .refine((value) => isValidEmail(value), "Enter a valid e-mail address.")
  .transform(normalizeEmail);

export const MAX_INVITATIONS_PER_REQUEST = 100;

export const inviteBody = z.object({
  emails: z
    .array(z.object({ email: inviteeEmail, role: role.default(ROLE.member) }))
    .min(1, "Add at least one e-mail address.")
    .max(MAX_INVITATIONS_PER_REQUEST, `Invite at most ${MAX_INVITATIONS_PER_REQUEST} people at a time.`),
  message: z.string().trim().max(2000).optional(),
});

export const roleBody = z.object({ role });

export const joinBody = z.object({
  accepted: z.boolean({ error: "accepted must be true or false." }),
  /** The invitation link's token: proves the address of an account that has not proven it yet. */
  token: z.string().max(200, "token is not an invitation token.").optional(),
});
