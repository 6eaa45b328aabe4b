/**
 * Who is here: the instance (set up or not, which sign-in methods are on), the current user
 * and their profile. Loaded once at start by the root route; drives the app-level route state
 * (non-authenticated, onboarding, authenticated).
 */
import { api } from "../lib/api";
import { outbox } from "../lib/offline/app-outbox";
import { KEPT_ANSWER_HEADER, onKeptAnswerChanged } from "../lib/offline/last-answers";
import { defineStore, resetAllStores } from "../lib/store";

export type InstanceInfo = {
  instance: { id: string; instance_name: string; is_setup_done: boolean; workspaces_exist: boolean };
  config: {
    enable_signup: boolean;
    is_email_password_enabled: boolean;
    is_magic_login_enabled: boolean;
    is_smtp_configured: boolean;
    app_base_url: string;
  };
};

export type CurrentUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar_url: string | null;
  is_password_autoset: boolean;
  /** Proven by a code or link mailed to the address; until then invitations to it stay hidden. */
  is_email_verified: boolean;
  date_joined: string;
};

export type Profile = {
  id: string;
  role: string | null;
  last_workspace_id: string | null;
  theme: { theme?: string; [key: string]: unknown };
  onboarding_step: {
    workspace_join: boolean;
    profile_complete: boolean;
    workspace_create: boolean;
    workspace_invite: boolean;
  };
  is_onboarded: boolean;
  is_tour_completed: boolean;
  use_case: string | null;
  language: string;
};

export type RouteState = "loading" | "instance-setup" | "non-authenticated" | "onboarding" | "authenticated";

export const session = defineStore(() => ({
  instance: null as InstanceInfo | null,
  user: null as CurrentUser | null,
  profile: null as Profile | null,
  loaded: false,
  loadError: null as string | null,
}));

let firstLoad: Promise<void> | null = null;

/**
 * The page's first loadSession, started once: main.tsx starts it before the app's first render
 * (while i18n initialises), and the root screen's mount joins it rather than asking again.
 */
export function startSession(): Promise<void> {
  firstLoad ??= loadSession();
  return firstLoad;
}

/** Load instance info and, if signed in, the user and profile. Safe to call again. */
export async function loadSession(): Promise<void> {
  try {
    // Asked together, not one after the other: at start every hop is paid before the first
    // screen (three round trips on a cold open, three local reads on a warm one). Signed out,
    // the profile's 401 is an answer like "who am I"'s (api.ts keeps both quiet).
    const [instance, me, profile] = await Promise.all([
      api.get("/api/instances/").json<InstanceInfo>(),
      api.get("/api/users/me/", { throwHttpErrors: false }),
      api.get("/api/users/me/profile/", { throwHttpErrors: false }),
    ]);
    session.instance = instance;
    if (me.ok) {
      if (!profile.ok) throw new Error(`profile: ${profile.status}`);
      const [user, keptOrRead] = await Promise.all([me.json<CurrentUser>(), profile.json<Profile>()]);
      // A kept answer (lib/offline/last-answers.ts) that says "not onboarded" may predate the
      // finish (another tab or device): the guards would send a shared link to onboarding and
      // then home. Onboarding only ever ends, so that answer is checked with the server first
      // (this page's second read of it goes to the server; offline, the kept copy stands).
      const userProfile =
        !keptOrRead.is_onboarded && profile.headers.get(KEPT_ANSWER_HEADER)
          ? await api
              .get("/api/users/me/profile/")
              .json<Profile>()
              .catch(() => keptOrRead)
          : keptOrRead;
      session.user = user;
      session.profile = userProfile;
    } else {
      session.user = null;
      session.profile = null;
    }
    session.loadError = null;
  } catch {
    session.loadError = "Failed to fetch instance info";
  } finally {
    session.loaded = true;
  }
}

// Started from kept answers (lib/offline/last-answers.ts) and the server says otherwise (another
// name, or the session ended): read who we are again, from the server.
onKeptAnswerChanged(/^\/api\/(instances|users\/me|users\/me\/profile)\/$/, () => void loadSession());

export function routeState(s: typeof session): RouteState {
  if (!s.loaded) return "loading";
  if (s.instance && !s.instance.instance.is_setup_done) return "instance-setup";
  if (!s.user) return "non-authenticated";
  if (!s.profile?.is_onboarded) return "onboarding";
  return "authenticated";
}

/** Fetch a CSRF token for the HTML form posts (sign-in, sign-up, sign-out). */
export async function csrfToken(): Promise<string> {
  const { csrf_token } = await api.get("/auth/get-csrf-token/").json<{ csrf_token: string }>();
  return csrf_token;
}

/**
 * Post an HTML form the way the product's contract wants (a real navigation, answered with a
 * redirect), carrying the CSRF token in csrfmiddlewaretoken.
 */
export async function submitAuthForm(action: string, fields: Record<string, string | undefined>): Promise<void> {
  const token = await csrfToken();
  const form = document.createElement("form");
  form.method = "POST";
  form.action = action;
  form.style.display = "none";
  for (const [name, value] of Object.entries({ ...fields, csrfmiddlewaretoken: token })) {
    if (value === undefined) continue;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

/** Sign out: clear every store, then post the hidden sign-out form. */
/**
 * The live editor keeps a copy of each opened document in IndexedDB (`tideline:{doc}:{user}`)
 * so it opens offline; on a shared computer those copies must not outlive the session.
 * Bounded so a stuck IndexedDB never blocks signing out.
 */
async function forgetLocalDocuments(): Promise<void> {
  if (typeof indexedDB === "undefined" || !indexedDB.databases) return;
  const removeAll = (async () => {
    const databases = await indexedDB.databases();
    await Promise.all(
      databases
        .map((d) => d.name)
        .filter((name): name is string => !!name?.startsWith("tideline:"))
        .map(
          (name) =>
            new Promise<void>((resolve) => {
              const request = indexedDB.deleteDatabase(name);
              request.onsuccess = request.onerror = request.onblocked = () => resolve();
            }),
        ),
    );
  })().catch(() => undefined);
  await Promise.race([removeAll, new Promise((resolve) => setTimeout(resolve, 1500))]);
}

export async function signOut(): Promise<void> {
  let token: string;
  try {
    token = await csrfToken();
  } catch {
    throw new Error("CSRF token not found");
  }
  resetAllStores();
  // Changes still waiting offline are this user's: they go with the session.
  await outbox.forget();
  await forgetLocalDocuments();
  const form = document.createElement("form");
  form.method = "POST";
  form.action = "/auth/sign-out/";
  form.style.display = "none";
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = "csrfmiddlewaretoken";
  input.value = token;
  form.appendChild(input);
  document.body.appendChild(form);
  form.submit();
}
