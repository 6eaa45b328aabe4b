/**
 * Where a link a person followed survives onboarding: the guards send a signed-in person who
 * has not finished onboarding to /onboarding/ with the address they asked for in next_path, and
 * finishing onboarding goes there (a shared project link opens for someone who just joined).
 */
import { safeNextPath } from "@tideline/shared";

const ONBOARDING = "/onboarding/";

/** A destination worth keeping: a same-origin path that is not home and not onboarding itself. */
export function keptNextPath(raw: unknown): string | null {
  const next = safeNextPath(raw);
  if (!next || next === "/" || next.startsWith(ONBOARDING) || next.startsWith("/?")) return null;
  return next;
}

/** /onboarding/, carrying `next` (when it is worth keeping). */
export function onboardingPath(next: unknown): string {
  const kept = keptNextPath(next);
  return kept ? `${ONBOARDING}?next_path=${encodeURIComponent(kept)}` : ONBOARDING;
}

/** Where finishing onboarding lands: the link the person followed, else their workspace, else home. */
export function afterOnboardingPath(next: unknown, workspaceSlug?: string | null): string {
  return keptNextPath(next) ?? (workspaceSlug ? `/${workspaceSlug}/` : "/");
}
