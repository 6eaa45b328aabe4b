/**
 * The current user's own account and preferences: names, onboarding progress, appearance,
 * language, notification preferences, password and deactivation. The user and profile
 * themselves live in the session store; these actions change them there (optimistically).
 */
import { toast } from "sonner";
import { changeLanguage } from "../i18n";
import { type ApiErrorBody, api, errorMessage, HTTPError } from "../lib/api";
import { optimistic } from "../lib/optimistic";
import { defineStore, resetAllStores } from "../lib/store";
import { type CurrentUser, csrfToken, type Profile, session } from "./session";
import { type CustomPalette, setTheme, THEMES, type ThemeName, theme } from "./theme";

export type UserPatch = Partial<Pick<CurrentUser, "first_name" | "last_name" | "display_name" | "avatar_url">>;

export type ProfilePatch = {
  use_case?: string | null;
  language?: string;
  last_workspace_id?: string | null;
  onboarding_step?: Partial<Profile["onboarding_step"]>;
  theme?: Record<string, string | boolean>;
};

export type NotificationPreferences = {
  property_change: boolean;
  state_change: boolean;
  comment: boolean;
  mention: boolean;
  issue_completed: boolean;
};

export const profileState = defineStore(() => ({
  notificationPreferences: null as NotificationPreferences | null,
}));

function patchUserLocal(patch: UserPatch): () => void {
  const before = session.user;
  if (before) session.user = { ...before, ...patch };
  return () => {
    session.user = before;
  };
}

/**
 * Profile writes may answer out of order (the onboarding's step marker is sent without waiting,
 * and "Skip for now" can finish onboarding before it answers): each write takes a number, and
 * only the latest write's answer (or undo) is applied — an older answer would put back what a
 * newer write changed, e.g. `is_onboarded: false`, and the guards would send the person back
 * to onboarding.
 */
let profileWrites = 0;
const nextProfileWrite = () => ++profileWrites;
const isLatestProfileWrite = (n: number) => n === profileWrites;

function applyProfileAnswer(write: number, result: Profile | null | undefined): void {
  if (result && isLatestProfileWrite(write)) session.profile = result;
}

function patchProfileLocal(patch: ProfilePatch, write = profileWrites): () => void {
  const before = session.profile;
  if (before) {
    session.profile = {
      ...before,
      ...(patch.use_case === undefined ? {} : { use_case: patch.use_case }),
      ...(patch.language === undefined ? {} : { language: patch.language }),
      ...(patch.last_workspace_id === undefined ? {} : { last_workspace_id: patch.last_workspace_id }),
      ...(patch.onboarding_step ? { onboarding_step: { ...before.onboarding_step, ...patch.onboarding_step } } : {}),
      ...(patch.theme ? { theme: { ...before.theme, ...patch.theme } } : {}),
    };
  }
  return () => {
    if (isLatestProfileWrite(write)) session.profile = before;
  };
}

/** Change my names. Resolves false (after a toast and undo) if the server refuses. */
export async function updateMe(patch: UserPatch): Promise<boolean> {
  const result = await optimistic({
    apply: () => patchUserLocal(patch),
    call: () => api.patch("/api/users/me/", { json: patch }).json<CurrentUser>(),
    error: "Failed to update current user",
  });
  if (result) session.user = result;
  return Boolean(result);
}

export async function updateProfile(patch: ProfilePatch): Promise<boolean> {
  const write = nextProfileWrite();
  const result = await optimistic({
    apply: () => patchProfileLocal(patch, write),
    call: () => api.patch("/api/users/me/profile/", { json: patch }).json<Profile>(),
    error: "Failed to update user profile",
  });
  applyProfileAnswer(write, result);
  return Boolean(result);
}

/**
 * Finish onboarding: the server sets every step, the landing workspace and is_onboarded.
 * The guards read session.profile, so the app moves on as soon as it is stored.
 */
export async function finishOnboarding(): Promise<boolean> {
  const write = nextProfileWrite();
  const result = await optimistic({
    apply: () => () => undefined,
    call: () => api.patch("/api/users/me/onboard/", { json: { is_onboarded: true } }).json<Profile>(),
    error: "Failed to finish user onboarding",
  });
  applyProfileAnswer(write, result);
  return Boolean(result);
}

/** Deactivate my account: the server signs me out everywhere; every store is cleared. */
export async function deactivateAccount(): Promise<boolean> {
  try {
    await api.delete("/api/users/me/");
  } catch (error) {
    toast.error("Couldn't deactivate your account", { description: await errorMessage(error) });
    return false;
  }
  resetAllStores();
  window.location.assign("/");
  return true;
}

export type PasswordChangeResult =
  | { ok: true; message: string }
  | { ok: false; field: "current" | "new" | null; message: string };

/** Change my password; a refusal says which field it is about (5135 current, 5140 new). */
export async function changePassword(oldPassword: string, newPassword: string): Promise<PasswordChangeResult> {
  try {
    const token = await csrfToken();
    const { message } = await api
      .post("/auth/change-password/", {
        json: { old_password: oldPassword, new_password: newPassword },
        headers: { "X-CSRFToken": token },
      })
      .json<{ message: string }>();
    if (session.user) session.user = { ...session.user, is_password_autoset: false };
    return { ok: true, message: message || "Password changed successfully." };
  } catch (error) {
    const code = error instanceof HTTPError ? (error.data as ApiErrorBody | undefined)?.error_code : undefined;
    const field = code === 5135 ? "current" : code === 5140 ? "new" : null;
    return { ok: false, field, message: await errorMessage(error) };
  }
}

// ───────── appearance and language ─────────

function isThemeName(value: unknown): value is ThemeName {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** The custom palette as the profile stores it (product-domain §3: theme.{primary, …}). */
function paletteFields(custom: CustomPalette): Record<string, string | boolean> {
  return {
    background: custom.background,
    text: custom.text,
    primary: custom.primary,
    sidebarBackground: custom.sidebarBackground,
    sidebarText: custom.sidebarText,
    darkPalette: custom.darkPalette,
    palette: [custom.background, custom.text, custom.primary, custom.sidebarBackground, custom.sidebarText].join(","),
  };
}

/** Switch theme now (this device) and remember it in the profile (other devices). */
export async function saveTheme(name: ThemeName, custom?: CustomPalette): Promise<boolean> {
  const previous = { name: theme.name, custom: theme.custom };
  const payload = { theme: name, ...(name === "custom" && custom ? paletteFields(custom) : {}) };
  const write = nextProfileWrite();
  const result = await optimistic({
    apply: () => {
      setTheme(name, name === "custom" ? (custom ?? theme.custom) : undefined);
      const undoProfile = patchProfileLocal({ theme: payload }, write);
      return () => {
        setTheme(previous.name, previous.custom);
        undoProfile();
      };
    },
    call: () => api.patch("/api/users/me/profile/", { json: { theme: payload } }).json<Profile>(),
    error: "Failed to update the theme",
  });
  applyProfileAnswer(write, result);
  return Boolean(result);
}

/**
 * Another device may have changed the theme: adopt the profile's one when it differs from
 * the locally remembered one. Local first paint stays fast; this corrects it once loaded.
 */
export function adoptProfileTheme(): void {
  const stored = session.profile?.theme;
  if (!stored || !isThemeName(stored.theme) || stored.theme === theme.name) return;
  if (stored.theme === "custom") {
    const str = (key: string, fallback: string) =>
      typeof stored[key] === "string" ? (stored[key] as string) : fallback;
    setTheme("custom", {
      background: str("background", "#ffffff"),
      text: str("text", "#1b1f24"),
      primary: str("primary", "#3f76ff"),
      sidebarBackground: str("sidebarBackground", "#f7f8fa"),
      sidebarText: str("sidebarText", "#3b424b"),
      darkPalette: stored.darkPalette === true,
    });
    return;
  }
  setTheme(stored.theme);
}

export async function saveLanguage(language: string): Promise<boolean> {
  const previous = session.profile?.language ?? "en";
  await changeLanguage(language);
  const ok = await updateProfile({ language });
  if (!ok) await changeLanguage(previous);
  return ok;
}

// ───────── notification preferences ─────────

export async function fetchNotificationPreferences(): Promise<NotificationPreferences> {
  const prefs = await api.get("/api/users/me/notification-preferences/").json<NotificationPreferences>();
  profileState.notificationPreferences = prefs;
  return prefs;
}

export async function updateNotificationPreference(key: keyof NotificationPreferences, value: boolean) {
  const result = await optimistic({
    apply: () => {
      const before = profileState.notificationPreferences;
      if (before) profileState.notificationPreferences = { ...before, [key]: value };
      return () => {
        profileState.notificationPreferences = before;
      };
    },
    call: () =>
      api.patch("/api/users/me/notification-preferences/", { json: { [key]: value } }).json<NotificationPreferences>(),
    error: "Couldn't save the notification setting",
  });
  if (result) profileState.notificationPreferences = result;
  return Boolean(result);
}
