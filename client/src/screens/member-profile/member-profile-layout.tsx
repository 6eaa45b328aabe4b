import clsx from "clsx";
import { CalendarDays, FolderKanban, PanelRight, UserRound, UserX } from "lucide-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useLocation, useOutletContext, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, EmptyState, showDay } from "../../components/ui";
import {
  loadMemberProfile,
  memberProfile,
  type ProfileProject,
  type ProfileUser,
  profileKey,
} from "../../stores/member-profile";
import { fetchWorkspaceMembers, memberName, members } from "../../stores/members";
import { session } from "../../stores/session";
import { usePanelCollapsed } from "../../stores/sidebar-preferences";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { Skeleton } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { roleKey } from "./profile-logic";
import "./member-profile.css";

/** What every tab needs from the frame. */
export type ProfileOutlet = {
  slug: string;
  userId: string;
  /** The member's name as shown ("Ada Lovelace"), "" while loading. */
  name: string;
  isMe: boolean;
  /** The caller's role in the workspace (the export needs member or admin). */
  callerRole: number | null;
  /** The member's projects (the caller's live projects) with their identifiers. */
  projects: readonly ProfileProject[];
};

export function useProfileOutlet(): ProfileOutlet {
  return useOutletContext<ProfileOutlet>();
}

const TABS = [
  { path: "", key: "summary" },
  { path: "assigned/", key: "assigned" },
  { path: "created/", key: "created" },
  { path: "subscribed/", key: "subscribed" },
  { path: "activity/", key: "activity" },
] as const;

/**
 * /:ws/profile/:userId/…: the member's card (avatar, name, role, when they joined, their work per
 * project) beside the tabs. On a phone the card comes first and the tabs scroll sideways.
 */
export function MemberProfileLayout() {
  const { t } = useTranslation();
  const { userId = "" } = useParams();
  const { slug, role } = useCurrentWorkspace();
  const snap = useSnapshot(memberProfile);
  const membersSnap = useSnapshot(members);
  const sessionSnap = useSnapshot(session);
  const key = profileKey(slug, userId);
  // The member's card beside the tabs: collapsed or not, kept per person (the reference's profile sidebar).
  const [cardCollapsed, setCardCollapsed] = usePanelCollapsed("profile");

  useEffect(() => {
    void loadMemberProfile(slug, userId);
  }, [slug, userId]);
  useEffect(() => {
    if (!members.bySlug[slug]) void fetchWorkspaceMembers(slug).catch(() => undefined);
  }, [slug]);

  const entry = snap.profiles[key];
  const user = entry?.data?.user_data as ProfileUser | undefined;
  const projects = (entry?.data?.project_data ?? []) as readonly ProfileProject[];
  const membership = membersSnap.bySlug[slug]?.find((m) => m.member.id === userId);
  const name = user ? memberName(user) : "";
  const isMe = sessionSnap.user?.id === userId;
  // On a phone the card sits above the tabs: it lists the projects only on the summary.
  const { pathname } = useLocation();
  const onSummary = pathname.endsWith(`/profile/${userId}/`);
  // On a phone the tab strip scrolls sideways: keep the open tab in view.
  const tabsRef = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the route
  useEffect(() => {
    tabsRef.current?.querySelector(".mp-tab.active")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [pathname]);

  useEffect(() => {
    if (name) document.title = `${name} · ${t("memberProfile.title")}`;
  }, [name, t]);

  const cardToggle = (
    <button
      type="button"
      className={clsx("mp-card-toggle", !cardCollapsed && "is-on")}
      aria-expanded={!cardCollapsed}
      aria-controls="mp-card"
      aria-label={cardCollapsed ? t("memberProfile.showCard") : t("memberProfile.hideCard")}
      title={cardCollapsed ? t("memberProfile.showCard") : t("memberProfile.hideCard")}
      onClick={() => setCardCollapsed(!cardCollapsed)}
    >
      <PanelRight size={15} aria-hidden />
    </button>
  );

  const header = (
    <PageHeader actions={entry?.status === "missing" || entry?.status === "error" ? undefined : cardToggle}>
      <UserRound size={16} aria-hidden className="muted" />
      <h1 className="mp-header-title">
        {isMe
          ? t("memberProfile.yourWork")
          : name ||
            (entry?.status === "missing" || entry?.status === "error" ? (
              t("memberProfile.title")
            ) : (
              <Skeleton width={120} height={14} />
            ))}
      </h1>
    </PageHeader>
  );

  if (entry?.status === "missing" || entry?.status === "error") {
    return (
      <div className="mp-screen">
        {header}
        <div className="mp-missing">
          <EmptyState
            icon={UserX}
            title={entry.status === "missing" ? t("memberProfile.missing.title") : t("memberProfile.error")}
            description={entry.status === "missing" ? t("memberProfile.missing.description") : undefined}
            action={
              <Link className="btn btn-secondary" to={`/${slug}/`}>
                {t("memberProfile.missing.home")}
              </Link>
            }
          />
        </div>
      </div>
    );
  }

  const outlet: ProfileOutlet = { slug, userId, name, isMe, callerRole: role, projects };
  const base = `/${slug}/profile/${userId}/`;
  const roleWord = membership
    ? t(`memberProfile.role.${roleKey(membership.role)}`)
    : membersSnap.bySlug[slug]
      ? t("memberProfile.role.former")
      : null;

  return (
    <div className="mp-screen">
      {header}
      <div className={clsx("mp-body", cardCollapsed && "is-collapsed")}>
        <div className="mp-main">
          <nav ref={tabsRef} className="mp-tabs" aria-label={t("memberProfile.tabsLabel")}>
            {TABS.map((tab) => (
              <NavLink
                key={tab.key}
                to={`${base}${tab.path}`}
                end
                className={({ isActive }) => (isActive ? "mp-tab active" : "mp-tab")}
              >
                {t(`memberProfile.tabs.${tab.key}`)}
              </NavLink>
            ))}
          </nav>
          <div className="mp-content">
            <Outlet context={outlet} />
          </div>
        </div>

        <aside
          id="mp-card"
          className={onSummary ? "mp-aside mp-aside-summary" : "mp-aside"}
          aria-label={t("memberProfile.cardLabel")}
          data-testid="profile-card"
          hidden={cardCollapsed}
        >
          {cardCollapsed ? null : user ? (
            <>
              <div className="mp-card-top">
                <Avatar name={name} src={user.avatar_url} size={56} />
                <div className="mp-card-names">
                  <h2 className="mp-name">{name}</h2>
                  {user.display_name && user.display_name !== name ? (
                    <span className="mp-handle">@{user.display_name}</span>
                  ) : null}
                </div>
              </div>
              <dl className="mp-facts">
                <div>
                  <dt>{t("memberProfile.roleLabel")}</dt>
                  <dd data-testid="profile-role">{roleWord ?? <Skeleton width={60} height={12} />}</dd>
                </div>
                <div>
                  <dt>{t("memberProfile.joined")}</dt>
                  <dd>
                    <CalendarDays size={13} aria-hidden className="muted" />
                    {showDay(membership?.created_at ?? user.date_joined)}
                  </dd>
                </div>
              </dl>
              <ProjectCounts projects={projects} slug={slug} />
            </>
          ) : (
            <div className="mp-card-skeleton" aria-busy="true">
              <div className="mp-card-top">
                <Skeleton width={56} height={56} radius={28} />
                <Skeleton width={140} height={16} />
              </div>
              <Skeleton height={12} width="60%" />
              <Skeleton height={12} width="45%" />
              <Skeleton height={40} />
              <Skeleton height={40} />
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}

/** The member's work in each of the caller's projects: created, assigned, done, pending. */
function ProjectCounts({ projects, slug }: { projects: readonly ProfileProject[]; slug: string }) {
  const { t } = useTranslation();
  if (projects.length === 0) return null;
  return (
    <section className="mp-projects" aria-label={t("memberProfile.projects.title")}>
      <h3 className="mp-section-title">
        <FolderKanban size={13} aria-hidden />
        {t("memberProfile.projects.title")}
      </h3>
      <ul>
        {projects.map((p) => {
          const done = p.assigned_issues > 0 ? Math.round((p.completed_issues / p.assigned_issues) * 100) : 0;
          return (
            <li key={p.id} className="mp-project" data-testid="profile-project">
              <div className="mp-project-head">
                <ProjectLogo name={p.name} logo={p.logo_props} size={18} />
                <Link to={`/${slug}/projects/${p.id}/issues/`} className="mp-project-name">
                  {p.name}
                </Link>
                {p.assigned_issues > 0 ? (
                  <span className="mp-project-pct" title={t("memberProfile.projects.doneTitle")}>
                    {done}%
                  </span>
                ) : null}
              </div>
              <div className="mp-project-counts">
                <span>
                  {t("memberProfile.projects.created")} <strong>{p.created_issues}</strong>
                </span>
                <span>
                  {t("memberProfile.projects.assigned")} <strong>{p.assigned_issues}</strong>
                </span>
                <span>
                  {t("memberProfile.projects.completed")} <strong>{p.completed_issues}</strong>
                </span>
                <span>
                  {t("memberProfile.projects.pending")} <strong>{p.pending_issues}</strong>
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
