/**
 * Workspace invitations: send (mailing a link), list, read, change role, revoke, and the
 * invitee's answer (join or decline).
 *
 * Who may manage an invitation (the spec leaves it open; chosen to mirror the member-role rule):
 * an admin may read, re-role and revoke any invitation; a member may do so for invitations whose
 * role is at most their own (member or guest invitations), and may never raise one above their
 * own role. Guests manage none. The invitee — a signed-in user whose e-mail is the invitation's —
 * may read it (the accept screen's preview) and answer it, without being a member yet. Anyone
 * else gets 404, so invitation ids do not leak which workspaces exist.
 *
 * The e-mailed link carries the invitation's id and a secret token (256 random bits; only its
 * hash is stored, the inviter never sees it, re-sending the invitation replaces it). The link's
 * landing (GET …/invitations/{id}/join/, no session needed) answers by id alone with a minimal
 * preview — workspace name and logo, inviter's name, invited address, role — since the reference
 * product's page reads it without the token; with the token (our client sends it) it also says
 * whether the address has an account. A wrong token, id or slug, or an answered invitation, is a
 * plain 404. The token is what matters for answering: that needs a session for the invited
 * address, and the address must be proven (auth/email-proof.ts) — an unverified account (a
 * password sign-up) gets 403 EMAIL_NOT_VERIFIED from the preview and the answer, unless the answer
 * carries the link's token: the link was mailed to the address, so holding it proves the address,
 * and the account is marked verified.
 */
import { personFullName, ROLE, ROLE_NAME, type Role } from "@tideline/shared";
import { and, desc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { emailNotVerified, proveAddress } from "../../auth/email-proof.ts";
import type { DbOrTx } from "../../db/client.ts";
import { users, workspaceInvitations, workspaceMembers, workspaces } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { requireUser, workspaceAccess } from "../../policies/access.ts";
import { presentInvitation, presentWorkspace } from "../../presenters/workspace.ts";
import { inviteBody, joinBody, roleBody } from "./schema.ts";
import {
  acceptInvitation,
  findUserByEmailLower,
  type InvitationRow,
  invitationTokenMatches,
  isInvitationFor,
  newInvitationToken,
  pendingInvitationById,
  pendingInvitationByToken,
  type UserRow,
  type WorkspaceRow,
} from "./service.ts";

type SlugParams = { slug: string };
type InvitationParams = { slug: string; id: string };

const inviters = alias(users, "inviters");

/** May a caller with `callerRole` read, re-role or revoke an invitation for `invitedRole`? */
export function canManageInvitation(callerRole: number, invitedRole: number): boolean {
  if (callerRole >= ROLE.admin) return true;
  return callerRole >= ROLE.member && invitedRole <= callerRole;
}

export const OTHER_EMAIL_MESSAGE = "This invitation was sent to another e-mail address.";

/** The invitation `id` of workspace `slug`, with its workspace and inviter, or undefined. */
async function findInvitation(db: DbOrTx, slug: string, id: string) {
  const [row] = await db
    .select({ invitation: workspaceInvitations, workspace: workspaces, inviter: inviters })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(inviters, eq(inviters.id, workspaceInvitations.createdById))
    .where(and(eq(workspaceInvitations.id, id), eq(workspaces.slug, String(slug).toLowerCase())))
    .limit(1);
  return row;
}

async function activeMembership(db: DbOrTx, workspaceId: string, userId: string) {
  const [row] = await db
    .select()
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .limit(1);
  return row;
}

/** Who invited: introduced by their full name, as the client's invitation screens do (personFullName). */
function inviterName(user: UserRow): string {
  return personFullName({
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    email: user.email,
  });
}

/**
 * What anyone holding an invitation's id may read (the link's landing without its token): only
 * what the invitation screen shows and the reference's page reads — no message, no user ids, no
 * inviter address, nothing about the invited address's account.
 */
export function presentInvitationPreview(invitation: InvitationRow, ws: WorkspaceRow, inviter: UserRow | null) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    accepted: invitation.accepted,
    responded_at: invitation.respondedAt,
    created_at: invitation.createdAt,
    workspace: { id: ws.id, name: ws.name, slug: ws.slug, logo_url: ws.logoUrl, logo_props: ws.logoProps },
    invited_by: inviter
      ? {
          first_name: inviter.firstName,
          last_name: inviter.lastName,
          display_name: inviter.displayName,
          avatar_url: inviter.avatarUrl,
        }
      : null,
  };
}

export function invitationLink(appBaseUrl: string, invitation: InvitationRow, ws: WorkspaceRow, token: string): string {
  const query = new URLSearchParams({ invitation_id: invitation.id, email: invitation.email, slug: ws.slug, token });
  return `${appBaseUrl}/workspace-invitations/?${query.toString()}`;
}

export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const { db, mailer, config } = app.ctx;

  /** An invitation a manager of the workspace may act on (404 outside it, 403 above their reach). */
  async function managedInvitation(request: FastifyRequest<{ Params: InvitationParams }>) {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.member);
    const id = requireUuid(request.params.id, "Invitation");
    const row = await findInvitation(db, access.workspace.slug, id);
    if (!row) throw notFound("Invitation");
    if (!canManageInvitation(access.membership.role, row.invitation.role)) {
      throw forbidden("Only an admin can manage an invitation for a role above your own.");
    }
    return { ...access, ...row };
  }

  app.post<{ Params: SlugParams }>("/api/workspaces/:slug/invitations/", async (request, reply) => {
    const { user, workspace, membership } = await workspaceAccess(db, request, request.params.slug, ROLE.member);
    const body = parse(inviteBody, request.body);
    const tooHigh = body.emails.find((e) => e.role > membership.role);
    if (tooHigh) {
      throw forbidden(
        `You can invite people as ${ROLE_NAME[membership.role as Role] ?? "guest"} at most; ${tooHigh.email} was given a higher role.`,
      );
    }
    // The same address twice in one request: the first entry counts.
    const wanted = new Map<string, Role>();
    for (const entry of body.emails) if (!wanted.has(entry.email)) wanted.set(entry.email, entry.role);

    const members = await db
      .select({ email: users.email })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.memberId))
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspace.id),
          eq(workspaceMembers.isActive, true),
          inArray(users.email, [...wanted.keys()]),
        ),
      );
    const memberEmails = new Set(members.map((m) => m.email.toLowerCase()));
    const skipped = [...wanted.keys()]
      .filter((email) => memberEmails.has(email))
      .map((email) => ({ email, reason: "Already a member of this workspace." }));
    const toInvite = [...wanted.entries()].filter(([email]) => !memberEmails.has(email));

    const sent = await db.transaction(async (tx) => {
      const rows: InvitationRow[] = [];
      for (const [email, role] of toInvite) {
        const now = new Date();
        const { token, tokenHash } = newInvitationToken();
        // Re-inviting refreshes the one row per (workspace, e-mail): new role, new inviter, new
        // link token (the old link stops working), pending again.
        const fresh = {
          role,
          message: body.message ?? null,
          tokenHash,
          accepted: false,
          respondedAt: null,
          createdById: user.id,
          updatedById: user.id,
          createdAt: now,
        };
        const [row] = await tx
          .insert(workspaceInvitations)
          .values({ workspaceId: workspace.id, email, ...fresh })
          .onConflictDoUpdate({ target: [workspaceInvitations.workspaceId, workspaceInvitations.email], set: fresh })
          .returning();
        if (!row) throw new Error("invitation write failed");
        rows.push(row);
        const link = invitationLink(config.appBaseUrl, row, workspace, token);
        await mailer.send(
          {
            to: email,
            subject: `${inviterName(user)} invited you to join ${workspace.name} on Tideline`,
            text: [
              `${inviterName(user)} (${user.email}) invited you to join the workspace "${workspace.name}" as ${ROLE_NAME[role]}.`,
              ...(body.message ? ["", body.message] : []),
              "",
              `Accept the invitation: ${link}`,
              "",
              "If you did not expect this invitation, you can ignore this e-mail.",
            ].join("\n"),
          },
          tx,
        );
      }
      return rows;
    });
    return reply.status(sent.length > 0 ? 201 : 200).send({
      invitations: sent.map((row) => presentInvitation(row, workspace, user)),
      skipped,
      message:
        skipped.length > 0
          ? `${skipped.length} of the addresses already belong to members and were skipped.`
          : `${sent.length} invitation${sent.length === 1 ? "" : "s"} sent.`,
    });
  });

  app.get<{ Params: SlugParams }>("/api/workspaces/:slug/invitations/", async (request) => {
    const { workspace } = await workspaceAccess(db, request, request.params.slug, ROLE.member);
    const rows = await db
      .select({ invitation: workspaceInvitations, inviter: inviters })
      .from(workspaceInvitations)
      .leftJoin(inviters, eq(inviters.id, workspaceInvitations.createdById))
      .where(and(eq(workspaceInvitations.workspaceId, workspace.id), eq(workspaceInvitations.accepted, false)))
      .orderBy(desc(workspaceInvitations.createdAt));
    return rows.map((r) => presentInvitation(r.invitation, workspace, r.inviter));
  });

  app.get<{ Params: InvitationParams }>("/api/workspaces/:slug/invitations/:id/", async (request) => {
    const user = requireUser(request);
    const id = requireUuid(request.params.id, "Invitation");
    const row = await findInvitation(db, request.params.slug, id);
    if (!row) throw notFound("Invitation");
    const { invitation, workspace, inviter } = row;
    const membership = await activeMembership(db, workspace.id, user.id);
    // The invitee's preview (they are usually not a member yet), once their address is proven.
    if (isInvitationFor(invitation, user)) {
      if (!user.isEmailVerified) throw emailNotVerified();
      return presentInvitation(invitation, workspace, inviter);
    }
    if (!membership) throw notFound("Invitation");
    if (!canManageInvitation(membership.role, invitation.role)) throw forbidden();
    return presentInvitation(invitation, workspace, inviter);
  });

  app.patch<{ Params: InvitationParams }>("/api/workspaces/:slug/invitations/:id/", async (request) => {
    const { user, membership, invitation, workspace, inviter } = await managedInvitation(request);
    const { role } = parse(roleBody, request.body);
    if (role > membership.role) throw forbidden("You cannot give an invitation a role above your own.");
    if (invitation.accepted) {
      throw badRequest("This invitation has already been accepted; change the member's role instead.");
    }
    const [updated] = await db
      .update(workspaceInvitations)
      .set({ role, updatedById: user.id })
      .where(eq(workspaceInvitations.id, invitation.id))
      .returning();
    if (!updated) throw notFound("Invitation");
    return presentInvitation(updated, workspace, inviter);
  });

  app.delete<{ Params: InvitationParams }>("/api/workspaces/:slug/invitations/:id/", async (request, reply) => {
    const { invitation } = await managedInvitation(request);
    await db.delete(workspaceInvitations).where(eq(workspaceInvitations.id, invitation.id));
    return reply.status(204).send();
  });

  /**
   * The invitation link's landing page, for whoever holds the link (signed in or not). By id
   * alone (the reference's page sends no token): the minimal preview. With the link's token:
   * the invitation as its invitee sees it, plus whether the invited address has an account yet
   * (so the page offers sign-up or sign-in). A wrong id, slug or token, or an invitation already
   * answered, is a 404 that says nothing more.
   */
  app.get<{ Params: InvitationParams; Querystring: { token?: unknown } }>(
    "/api/workspaces/:slug/invitations/:id/join/",
    { config: { public: true } },
    async (request) => {
      const { token } = request.query;
      const byId = token === undefined || token === "";
      const row = byId
        ? await pendingInvitationById(db, request.params.id)
        : await pendingInvitationByToken(db, request.params.id, token);
      if (!row || row.workspace.slug !== String(request.params.slug).toLowerCase()) throw notFound("Invitation");
      const { invitation, workspace, inviter } = row;
      if (byId) return presentInvitationPreview(invitation, workspace, inviter);
      return {
        ...presentInvitation(invitation, workspace, inviter),
        existing_user: Boolean(await findUserByEmailLower(db, invitation.email)),
      };
    },
  );

  // The caller is not a member yet, so this cannot go through workspaceAccess: the invitation
  // itself (this workspace, the caller's own e-mail) is what grants entry.
  app.post<{ Params: InvitationParams }>(
    "/api/workspaces/:slug/invitations/:id/join/",
    { config: { public: false } },
    async (request, reply) => {
      const user = requireUser(request);
      const id = requireUuid(request.params.id, "Invitation");
      const row = await findInvitation(db, request.params.slug, id);
      if (!row) throw notFound("Invitation");
      const { invitation, workspace } = row;
      if (!isInvitationFor(invitation, user)) throw forbidden(OTHER_EMAIL_MESSAGE);
      const { accepted, token } = parse(joinBody, request.body);
      // An unproven address may answer only with the link mailed to it (which proves it).
      const provesAddress = !user.isEmailVerified && invitationTokenMatches(invitation, token);
      if (!user.isEmailVerified && !provesAddress) throw emailNotVerified();
      if (invitation.accepted || invitation.respondedAt) {
        throw badRequest("You have already answered this invitation.", undefined, "INVITATION_ALREADY_ANSWERED");
      }
      const membership = await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
        const member = provesAddress
          ? await proveAddress(tx, emit, user, { kind: "session", sessionToken: request.sessionToken })
          : user;
        if (!accepted) {
          await tx.delete(workspaceInvitations).where(eq(workspaceInvitations.id, invitation.id));
          return null;
        }
        return acceptInvitation(tx, emit, invitation, member);
      });
      if (!membership) return reply.status(204).send();
      return {
        accepted: true,
        role: membership.role,
        workspace: presentWorkspace(workspace, { role: membership.role }),
      };
    },
  );
}
