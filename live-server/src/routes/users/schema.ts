/** Request bodies of the current-user routes. Unknown fields are ignored (http/errors.ts). */
import { LANGUAGES } from "@tideline/shared";
import { z } from "zod";
import { imageUrl } from "../workspaces/schema.ts";

const name = (label: string) =>
  z.string().trim().min(1, `${label} is required.`).max(255, `${label} can have at most 255 characters.`);

export const updateMeBody = z
  .object({
    first_name: name("First name"),
    last_name: z.string().trim().max(255, "Last name can have at most 255 characters."),
    display_name: name("Display name"),
    avatar_url: imageUrl.nullable(),
    cover_image_url: imageUrl.nullable(),
  })
  .partial();

/** The appearance settings (product-domain §3 user profile `theme`); merged into the stored one. */
const themeBody = z
  .object({
    theme: z.string().max(40),
    text: z.string().max(64),
    palette: z.string().max(512),
    primary: z.string().max(64),
    background: z.string().max(64),
    darkPalette: z.boolean(),
    sidebarText: z.string().max(64),
    sidebarBackground: z.string().max(64),
  })
  .partial();

export const onboardingStepBody = z
  .object({
    workspace_join: z.boolean(),
    profile_complete: z.boolean(),
    workspace_create: z.boolean(),
    workspace_invite: z.boolean(),
  })
  .partial();

export const updateProfileBody = z
  .object({
    theme: themeBody,
    onboarding_step: onboardingStepBody,
    use_case: z.string().trim().max(255).nullable(),
    language: z.enum(LANGUAGES, { error: `Language must be one of: ${LANGUAGES.join(", ")}.` }),
    role: z.string().trim().max(255).nullable(),
    last_workspace_id: z.uuid("Not a workspace id.").nullable(),
    billing_address_country: z.string().trim().max(255).nullable(),
    billing_address: z.string().trim().max(1024).nullable(),
    has_billing_address: z.boolean(),
  })
  .partial();

export const notificationPreferencesBody = z
  .object({
    property_change: z.boolean(),
    state_change: z.boolean(),
    comment: z.boolean(),
    mention: z.boolean(),
    issue_completed: z.boolean(),
  })
  .partial();

export const onboardBody = z.object({ is_onboarded: z.literal(true, { error: "is_onboarded must be true." }) });

export const tourCompletedBody = z.object({
  is_tour_completed: z.literal(true, { error: "is_tour_completed must be true." }),
});

export const acceptInvitationsBody = z.object({
  invitations: z
    .array(z.uuid("Not an invitation id."))
    .min(1, "Give at least one invitation id.")
    .max(100, "Accept at most 100 invitations at a time."),
});
