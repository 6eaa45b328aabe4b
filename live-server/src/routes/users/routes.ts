/**
 * The current user: account, profile, preferences, onboarding, their workspaces and the
 * invitations addressed to them. Every route here needs a session and only ever touches the
 * caller's own rows.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { requireVerifiedEmail } from "../../auth/email-proof.ts";
import { clearSessionCookie, revokeUserSessions } from "../../auth/sessions.ts";
import type { NotificationPreferences, OnboardingStep } from "../../db/schema.ts";
import { instanceAdmins, projectMembers, projects, userProfiles, users, workspaceMembers } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { requireUser, workspaceAccess } from "../../policies/access.ts";
import { presentMe } from "../../presenters/user.ts";
import { presentInvitation, presentWorkspace } from "../../presenters/workspace.ts";
import {
  acceptInvitation,
  countPendingInvitations,
  deactivateMembership,
  ensureProfile,
  firstWorkspaceOf,
  listMyWorkspaces,
  memberWorkspaceById,
  pendingInvitationsFor,
  workspacesBlockingDeactivation,
} from "../workspaces/service.ts";
import { presentProfile } from "./presenters.ts";
import {
  acceptInvitationsBody,
  notificationPreferencesBody,
  onboardBody,
  tourCompletedBody,
  updateMeBody,
  updateProfileBody,
} from "./schema.ts";

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  // ───────────── account ─────────────

  app.get("/api/users/me/", async (request) => presentMe(requireUser(request)));

  app.patch("/api/users/me/", async (request) => {
    const user = requireUser(request);
    const body = parse(updateMeBody, request.body);
    const [updated] = await db
      .update(users)
      .set({
        ...(body.first_name === undefined ? {} : { firstName: body.first_name }),
        ...(body.last_name === undefined ? {} : { lastName: body.last_name }),
        ...(body.display_name === undefined ? {} : { displayName: body.display_name }),
        ...(body.avatar_url === undefined ? {} : { avatarUrl: body.avatar_url }),
        ...(body.cover_image_url === undefined ? {} : { coverImageUrl: body.cover_image_url }),
        updatedById: user.id,
      })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw new Error("user update failed");
    return presentMe(updated);
  });

  /**
   * Deactivate my account: signed out everywhere, out of every workspace and project. Refused
   * while I am the only admin of a workspace that others still use (they would be left with
   * nobody able to manage it), and while I am the instance's only administrator.
   */
  app.delete("/api/users/me/", async (request, reply) => {
    const user = requireUser(request);
    const blocking = await workspacesBlockingDeactivation(db, user.id);
    if (blocking.length > 0) {
      const names = blocking.map((w) => `"${w.name}"`).join(", ");
      throw badRequest(
        `You are the only admin of ${names}. Make another member admin (or remove the other members) before deactivating your account.`,
        undefined,
        "LAST_WORKSPACE_ADMIN",
      );
    }
    const admins = await db.select({ userId: instanceAdmins.userId }).from(instanceAdmins);
    if (admins.length === 1 && admins[0]?.userId === user.id) {
      throw badRequest(
        "You are this instance's only administrator; your account cannot be deactivated.",
        undefined,
        "LAST_INSTANCE_ADMIN",
      );
    }
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      await tx.update(users).set({ isActive: false, updatedById: user.id }).where(eq(users.id, user.id));
      const memberships = await tx
        .select({ workspaceId: workspaceMembers.workspaceId })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.memberId, user.id), eq(workspaceMembers.isActive, true)));
      for (const m of memberships) await deactivateMembership(tx, emit, m.workspaceId, user.id);
      // Every device is signed out, open live sockets included.
      await revokeUserSessions(tx, emit, user.id);
    });
    clearSessionCookie(reply, app.secureCookies);
    return reply.status(204).send();
  });

  // ───────────── profile and preferences ─────────────

  app.get("/api/users/me/profile/", async (request) => {
    const user = requireUser(request);
    return presentProfile(await ensureProfile(db, user.id));
  });

  app.patch("/api/users/me/profile/", async (request) => {
    const user = requireUser(request);
    const body = parse(updateProfileBody, request.body);
    if (body.last_workspace_id && !(await memberWorkspaceById(db, user.id, body.last_workspace_id))) {
      throw badRequest("last_workspace_id: you are not a member of that workspace.", {
        last_workspace_id: ["You are not a member of that workspace."],
      });
    }
    const current = await ensureProfile(db, user.id);
    const [updated] = await db
      .update(userProfiles)
      .set({
        // theme and onboarding_step are merged, so a client can send just the part it changed.
        ...(body.theme === undefined ? {} : { theme: { ...current.theme, ...body.theme } }),
        ...(body.onboarding_step === undefined
          ? {}
          : { onboardingStep: { ...current.onboardingStep, ...body.onboarding_step } }),
        ...(body.use_case === undefined ? {} : { useCase: body.use_case }),
        ...(body.language === undefined ? {} : { language: body.language }),
        ...(body.role === undefined ? {} : { role: body.role }),
        ...(body.last_workspace_id === undefined ? {} : { lastWorkspaceId: body.last_workspace_id }),
        ...(body.billing_address_country === undefined ? {} : { billingAddressCountry: body.billing_address_country }),
        ...(body.billing_address === undefined ? {} : { billingAddress: body.billing_address }),
        ...(body.has_billing_address === undefined ? {} : { hasBillingAddress: body.has_billing_address }),
        updatedById: user.id,
      })
      .where(eq(userProfiles.id, current.id))
      .returning();
    if (!updated) throw new Error("profile update failed");
    return presentProfile(updated);
  });

  // Linked sign-in providers (Google, GitHub, GitLab...). This edition signs in by e-mail with a
  // password or a unique code only, so no account is ever linked; the list is always empty.
  app.get("/api/users/me/accounts/", async (request) => {
    requireUser(request);
    return [];
  });

  app.get("/api/users/me/instance-admin/", async (request) => {
    const user = requireUser(request);
    const [row] = await db
      .select({ id: instanceAdmins.id })
      .from(instanceAdmins)
      .where(eq(instanceAdmins.userId, user.id))
      .limit(1);
    return { is_instance_admin: Boolean(row) };
  });

  /**
   * Where the app should land: the last workspace if I am still in it, and a fallback (the
   * first workspace I joined) for when the last one is gone, plus my pending invitation count.
   */
  app.get("/api/users/me/settings/", async (request) => {
    const user = requireUser(request);
    const profile = await ensureProfile(db, user.id);
    const last = profile.lastWorkspaceId ? await memberWorkspaceById(db, user.id, profile.lastWorkspaceId) : undefined;
    const fallback = await firstWorkspaceOf(db, user.id);
    return {
      id: user.id,
      email: user.email,
      workspace: {
        last_workspace_id: last?.id ?? null,
        last_workspace_slug: last?.slug ?? null,
        fallback_workspace_id: fallback?.id ?? null,
        fallback_workspace_slug: fallback?.slug ?? null,
        // Nothing addressed to an e-mail the account has not proven (auth/email-proof.ts).
        invites: user.isEmailVerified ? await countPendingInvitations(db, user.email) : 0,
      },
    };
  });

  app.get("/api/users/me/notification-preferences/", async (request) => {
    const user = requireUser(request);
    return (await ensureProfile(db, user.id)).notificationPreferences;
  });

  app.patch("/api/users/me/notification-preferences/", async (request) => {
    const user = requireUser(request);
    const body = parse(notificationPreferencesBody, request.body);
    const current = await ensureProfile(db, user.id);
    const next: NotificationPreferences = { ...current.notificationPreferences, ...body };
    await db.update(userProfiles).set({ notificationPreferences: next }).where(eq(userProfiles.id, current.id));
    return next;
  });

  /** Finish onboarding (product-domain §4): every step done, land on the first workspace. */
  app.patch("/api/users/me/onboard/", async (request) => {
    const user = requireUser(request);
    parse(onboardBody, request.body);
    const profile = await ensureProfile(db, user.id);
    const first = await firstWorkspaceOf(db, user.id);
    const allDone: OnboardingStep = {
      workspace_join: true,
      profile_complete: true,
      workspace_create: true,
      workspace_invite: true,
    };
    const [updated] = await db
      .update(userProfiles)
      .set({
        onboardingStep: allDone,
        isOnboarded: true,
        ...(first ? { lastWorkspaceId: first.id } : {}),
        updatedById: user.id,
      })
      .where(eq(userProfiles.id, profile.id))
      .returning();
    if (!updated) throw new Error("profile update failed");
    return presentProfile(updated);
  });

  app.patch("/api/users/me/tour-completed/", async (request) => {
    const user = requireUser(request);
    parse(tourCompletedBody, request.body);
    const profile = await ensureProfile(db, user.id);
    const [updated] = await db
      .update(userProfiles)
      .set({ isTourCompleted: true, updatedById: user.id })
      .where(eq(userProfiles.id, profile.id))
      .returning();
    if (!updated) throw new Error("profile update failed");
    return presentProfile(updated);
  });

  // ───────────── my workspaces and invitations ─────────────

  app.get("/api/users/me/workspaces/", async (request) => {
    const user = requireUser(request);
    const rows = await listMyWorkspaces(db, user.id);
    return rows.map((r) =>
      presentWorkspace(r.workspace, { owner: r.owner, role: r.membership.role, total_members: r.total ?? 0 }),
    );
  });

  /** My role in each project of the workspace I am an active member of: `{ [projectId]: role }`. */
  app.get<{ Params: { slug: string } }>("/api/users/me/workspaces/:slug/project-roles/", async (request) => {
    const { user, workspace } = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const rows = await db
      .select({ projectId: projectMembers.projectId, role: projectMembers.role })
      .from(projectMembers)
      .where(
        and(
          eq(projectMembers.workspaceId, workspace.id),
          eq(projectMembers.memberId, user.id),
          eq(projectMembers.isActive, true),
        ),
      );
    return Object.fromEntries(rows.map((r) => [r.projectId, r.role]));
  });

  /** My pending invitations; 403 EMAIL_NOT_VERIFIED until my address is proven. */
  app.get("/api/users/me/workspaces/invitations/", async (request) => {
    const user = requireUser(request);
    requireVerifiedEmail(user);
    const rows = await pendingInvitationsFor(db, user.email);
    return rows.map((r) => presentInvitation(r.invitation, r.workspace, r.inviter));
  });

  /**
   * Accept several of my invitations at once (the onboarding "join workspaces" step). Ids that
   * are not pending invitations to my own e-mail are ignored: they never reveal anything.
   */
  app.post("/api/users/me/workspaces/invitations/", async (request) => {
    const user = requireUser(request);
    const { invitations: ids } = parse(acceptInvitationsBody, request.body);
    requireVerifiedEmail(user);
    const mine = (await pendingInvitationsFor(db, user.email)).filter((r) => ids.includes(r.invitation.id));
    const joined = await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const out = [];
      for (const row of mine) {
        const membership = await acceptInvitation(tx, emit, row.invitation, user);
        out.push(presentWorkspace(row.workspace, { role: membership.role }));
      }
      return out;
    });
    return joined;
  });

  /** The workspace to reopen (the last one, if I am still in it) and my projects there. */
  app.get("/api/users/last-visited-workspace/", async (request) => {
    const user = requireUser(request);
    const profile = await ensureProfile(db, user.id);
    const last = profile.lastWorkspaceId ? await memberWorkspaceById(db, user.id, profile.lastWorkspaceId) : undefined;
    if (!last) return { workspace_details: null, project_details: [] };
    const mine = await db
      .select({ project: projects, role: projectMembers.role })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(
        and(
          eq(projectMembers.workspaceId, last.id),
          eq(projectMembers.memberId, user.id),
          eq(projectMembers.isActive, true),
          isNull(projects.archivedAt),
        ),
      )
      .orderBy(asc(projects.name));
    return {
      workspace_details: presentWorkspace(last),
      project_details: mine.map((r) => ({
        id: r.project.id,
        name: r.project.name,
        identifier: r.project.identifier,
        logo_props: r.project.logoProps,
        role: r.role,
      })),
    };
  });
}
