/**
 * Invitations: the ones addressed to me (onboarding, /invitations/, the mailed link) and the
 * pending ones of a workspace (members settings: send, change role, resend, revoke).
 */
import { EMAIL_NOT_VERIFIED } from "@tideline/shared";
import { toast } from "sonner";
import { type ApiErrorBody, api, errorMessage, HTTPError } from "../lib/api";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { session } from "./session";
import { fetchMyWorkspaces, type Workspace } from "./workspaces";

export type Invitation = {
  id: string;
  email: string;
  role: number;
  message: string | null;
  accepted: boolean;
  responded_at: string | null;
  workspace: { id: string; name: string; slug: string; logo_url: string | null };
  invited_by: { id: string; first_name: string; last_name: string; display_name: string } | null;
  created_at: string;
};

/** The invitation as its link's landing page sees it (public, with the link's token). */
export type LandingInvitation = Invitation & {
  /** Whether the invited address has an account already: sign in rather than sign up. */
  existing_user: boolean;
};

export type InviteEntry = { email: string; role: number };

export type InviteResult = {
  invitations: Invitation[];
  skipped: { email: string; reason: string }[];
  message: string;
};

export const invitations = defineStore(() => ({
  mine: [] as Invitation[],
  mineLoaded: false,
  /** My address is not proven yet: invitations to it stay hidden until it is (verify-email panel). */
  needsVerification: false,
  /** Pending invitations per workspace slug. */
  bySlug: {} as Record<string, Invitation[]>,
}));

const base = (slug: string) => `/api/workspaces/${slug}`;

/** Whether a failed call was refused because my address is not proven (403 EMAIL_NOT_VERIFIED). */
export async function isEmailNotVerified(error: unknown): Promise<boolean> {
  if (!(error instanceof HTTPError) || error.response.status !== 403) return false;
  const body = (error.data ?? (await error.response.json().catch(() => undefined))) as ApiErrorBody | undefined;
  return body?.code === EMAIL_NOT_VERIFIED;
}

/**
 * My pending invitations. An account whose address is not proven gets none (the server would
 * refuse): `needsVerification` tells the screens to offer the verify-email step instead.
 */
export async function fetchMyInvitations(): Promise<Invitation[]> {
  const unproven = () => {
    invitations.needsVerification = true;
    invitations.mine = [];
    invitations.mineLoaded = true;
    return [];
  };
  if (session.user && !session.user.is_email_verified) return unproven();
  try {
    const list = await api.get("/api/users/me/workspaces/invitations/").json<Invitation[]>();
    invitations.needsVerification = false;
    invitations.mine = list;
    invitations.mineLoaded = true;
    return list;
  } catch (error) {
    if (await isEmailNotVerified(error)) return unproven();
    throw error;
  }
}

/**
 * The invitation a mailed link points at, read with the link's token: works signed out (the
 * landing page of someone without an account) and before the address is proven.
 */
export async function fetchInvitationByLink(
  slug: string,
  id: string,
  token: string,
): Promise<{ invitation: LandingInvitation } | { status: number }> {
  const response = await api.get(`${base(slug)}/invitations/${encodeURIComponent(id)}/join/`, {
    searchParams: { token },
    throwHttpErrors: false,
  });
  if (!response.ok) return { status: response.status };
  return { invitation: await response.json<LandingInvitation>() };
}

/** Accept some of my invitations: they leave the pending list at once, workspaces reload after. */
export async function acceptMyInvitations(ids: string[]): Promise<Workspace[] | undefined> {
  const joined = await optimistic({
    apply: () => {
      const before = invitations.mine;
      invitations.mine = before.filter((i) => !ids.includes(i.id));
      return () => {
        invitations.mine = before;
      };
    },
    call: () => api.post("/api/users/me/workspaces/invitations/", { json: { invitations: ids } }).json<Workspace[]>(),
    error: "Couldn't accept the invitation",
  });
  if (joined) {
    await noteJoined();
    await fetchMyWorkspaces().catch(() => undefined);
  }
  return joined;
}

/** Onboarding's "joined a workspace" step, remembered so a reload resumes in the right place. */
async function noteJoined(): Promise<void> {
  const profile = session.profile;
  if (!profile || profile.onboarding_step.workspace_join) return;
  profile.onboarding_step = { ...profile.onboarding_step, workspace_join: true };
  await api
    .patch("/api/users/me/profile/", { json: { onboarding_step: { workspace_join: true } } })
    .catch(() => undefined);
}

/** The invitation the mailed link points at (readable by the invitee before joining). */
export async function fetchInvitation(
  slug: string,
  id: string,
): Promise<{ invitation: Invitation } | { status: number }> {
  const response = await api.get(`${base(slug)}/invitations/${id}/`, { throwHttpErrors: false });
  if (!response.ok) return { status: response.status };
  return { invitation: await response.json<Invitation>() };
}

/**
 * Answer the mailed invitation. `token` (from the link) proves my address if it is not proven
 * yet. Throws so the screen can say what went wrong in place.
 */
export async function answerInvitation(slug: string, id: string, accepted: boolean, token?: string): Promise<void> {
  await api.post(`${base(slug)}/invitations/${id}/join/`, { json: token ? { accepted, token } : { accepted } });
  if (token && session.user && !session.user.is_email_verified) {
    // The link proved the address (the server marked it so).
    session.user = { ...session.user, is_email_verified: true };
  }
  invitations.mine = invitations.mine.filter((i) => i.id !== id);
  if (accepted) {
    await noteJoined();
    await fetchMyWorkspaces().catch(() => undefined);
  }
}

// ───────── a workspace's invitations ─────────

export async function fetchWorkspaceInvitations(slug: string): Promise<Invitation[]> {
  const list = await api.get(`${base(slug)}/invitations/`).json<Invitation[]>();
  invitations.bySlug[slug] = list;
  return list;
}

/** Send invitations. Throws so the modal keeps what was typed and can show field errors. */
export async function sendInvitations(slug: string, entries: InviteEntry[]): Promise<InviteResult> {
  const result = await api.post(`${base(slug)}/invitations/`, { json: { emails: entries } }).json<InviteResult>();
  const current = invitations.bySlug[slug] ?? [];
  const sentEmails = new Set(result.invitations.map((i) => i.email));
  invitations.bySlug[slug] = [...result.invitations, ...current.filter((i) => !sentEmails.has(i.email))];
  return result;
}

/** Send the same invitation again (the server refreshes the pending row and mails it). */
export async function resendInvitation(slug: string, invitation: Invitation): Promise<boolean> {
  try {
    await api.post(`${base(slug)}/invitations/`, {
      json: { emails: [{ email: invitation.email, role: invitation.role }] },
    });
    toast.success("Invitation sent again", { description: invitation.email });
    return true;
  } catch (error) {
    toast.error("Couldn't resend the invitation", { description: await errorMessage(error) });
    return false;
  }
}

function patchList(slug: string, change: (list: Invitation[]) => Invitation[]) {
  const before = invitations.bySlug[slug];
  if (before) invitations.bySlug[slug] = change(before);
  return () => {
    if (before) invitations.bySlug[slug] = before;
  };
}

export async function updateInvitationRole(slug: string, id: string, role: number): Promise<boolean> {
  const result = await optimistic({
    apply: () => patchList(slug, (list) => list.map((i) => (i.id === id ? { ...i, role } : i))),
    call: () => api.patch(`${base(slug)}/invitations/${id}/`, { json: { role } }).json<Invitation>(),
    error: "Couldn't change the invitation's role",
  });
  return Boolean(result);
}

export async function revokeInvitation(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => patchList(slug, (list) => list.filter((i) => i.id !== id)),
    call: () => api.delete(`${base(slug)}/invitations/${id}/`).then(() => true),
    error: "Couldn't revoke the invitation",
  });
  if (ok) toast.success("Invitation revoked");
  return Boolean(ok);
}
