/**
 * App-level route states (calls-errors-sync §2): public, non-authenticated, onboarding,
 * authenticated. Each guard renders its children or sends the browser where it belongs.
 */

import { safeNextPath } from "@tideline/shared";
import { Navigate, Outlet, useLocation } from "react-router";
import { useSnapshot } from "valtio";
import { ScreenLoader } from "../components/ui";
import { routeState, session } from "../stores/session";
import { HomeRedirect } from "./home-redirect";
import { onboardingPath } from "./onboarding-path";

/** Sign-in and sign-up screens: a signed-in user is sent on (to next_path, onboarding or home). */
export function NonAuthenticatedOnly() {
  const snap = useSnapshot(session);
  const location = useLocation();
  const state = routeState(snap as typeof session);
  if (state === "loading") return <ScreenLoader />;
  if (state === "non-authenticated") return <Outlet />;
  const next = safeNextPath(new URLSearchParams(location.search).get("next_path"));
  // Signed in but not onboarded: onboarding first, then where the link was going.
  if (state === "onboarding") return <Navigate to={onboardingPath(next)} replace />;
  if (next) return <Navigate to={next} replace />;
  return <HomeRedirect />;
}

/** Anything that needs a user: anonymous visitors go to sign-in and come back afterwards. */
export function RequireUser() {
  const snap = useSnapshot(session);
  const location = useLocation();
  if (!snap.loaded) return <ScreenLoader />;
  if (!snap.user) {
    const next = location.pathname + location.search;
    return <Navigate to={`/?next_path=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}

/**
 * The workspace app: users who have not finished onboarding finish it first, and then land
 * where they were going (a shared link to a project opens once they have joined).
 */
export function RequireOnboarded() {
  const snap = useSnapshot(session);
  const location = useLocation();
  if (!snap.profile?.is_onboarded) {
    return <Navigate to={onboardingPath(location.pathname + location.search)} replace />;
  }
  return <Outlet />;
}
