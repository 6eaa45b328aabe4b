/**
 * Sign-in screens. `authRoutes` sit under the NonAuthenticatedOnly guard; `setPasswordRoutes`
 * under RequireUser (choosing a password needs a signed-in user). Each screen loads lazily.
 */
import type { RouteObject } from "react-router";

export const authRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import("./sign-in-screen")).SignInScreen }) },
  { path: "sign-up", lazy: async () => ({ Component: (await import("./sign-up-screen")).SignUpScreen }) },
  {
    path: "accounts/forgot-password",
    lazy: async () => ({ Component: (await import("./forgot-password-screen")).ForgotPasswordScreen }),
  },
  {
    path: "accounts/reset-password",
    lazy: async () => ({ Component: (await import("./reset-password-screen")).ResetPasswordScreen }),
  },
];

export const setPasswordRoutes: RouteObject[] = [
  {
    path: "accounts/set-password",
    lazy: async () => ({ Component: (await import("./set-password-screen")).SetPasswordScreen }),
  },
];
