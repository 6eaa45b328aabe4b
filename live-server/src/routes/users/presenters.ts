/** How the current user's profile and preferences appear in API responses. */
import type { userProfiles } from "../../db/schema.ts";

type ProfileRow = typeof userProfiles.$inferSelect;

export function presentProfile(profile: ProfileRow) {
  return {
    id: profile.id,
    user: profile.userId,
    role: profile.role,
    last_workspace_id: profile.lastWorkspaceId,
    theme: profile.theme,
    onboarding_step: profile.onboardingStep,
    is_onboarded: profile.isOnboarded,
    is_tour_completed: profile.isTourCompleted,
    use_case: profile.useCase,
    language: profile.language,
    billing_address_country: profile.billingAddressCountry,
    billing_address: profile.billingAddress,
    has_billing_address: profile.hasBillingAddress,
    created_at: profile.createdAt,
    updated_at: profile.updatedAt,
  };
}
