import { personName } from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  Boxes,
  Check,
  ChevronDown,
  ChevronRight,
  Contrast,
  Copy,
  Ellipsis,
  FileText,
  FolderKanban,
  House,
  Layers,
  ListTodo,
  LogOut,
  PanelLeftClose,
  PanelLeftOpen,
  Plus,
  Settings,
  Sparkles,
  Star,
  StarOff,
  User,
  UserPlus,
  UserRound,
  Users,
  X,
} from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Avatar } from "../../components/ui";
import { toggleFavoriteProject } from "../../stores/favorites";
import { type Project, projects } from "../../stores/projects";
import { session, signOut } from "../../stores/session";
import { toggleMainSidebar, usePanelCollapsed } from "../../stores/sidebar-preferences";
import { workspaces } from "../../stores/workspaces";
import { SearchSidebarButton } from "../command-palette/sidebar-entry";
import { IntakeSidebarLink } from "../intake/sidebar-entry";
import { NotificationsSidebarLink } from "../notifications/sidebar-entry";
import { ProjectLogo, WorkspaceLogo } from "./components/logos";
import { Menu, MenuItem, MenuSeparator } from "./components/menu";
import { Skeleton } from "./components/skeleton";
import { FavoritesSection } from "./favorites/favorites-section";
import { can } from "./permissions";
import { useEntryPinned, WorkspaceEntries } from "./sidebar-entries";
import { SidebarLink } from "./sidebar-link";
import { useCurrentWorkspace, useShell } from "./use-workspace";

/** Is the key event Mod+B typed outside a text field (where Mod+B is bold)? */
function isSidebarShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing || event.altKey || event.shiftKey) return false;
  if (!(event.metaKey || event.ctrlKey) || event.key.toLowerCase() !== "b") return false;
  const target = event.target as HTMLElement | null;
  if (target?.closest?.("input, textarea, select, [contenteditable]:not([contenteditable='false'])")) return false;
  // Over a dialog the key belongs to it.
  return !document.querySelector(".dialog-content, .nav-drawer");
}

/**
 * The workspace sidebar: the workspace menu, Home, Notifications and Projects (always shown),
 * the person's pinned workspace entries and "More" (sidebar-entries.tsx), Favorites, their
 * projects, invite and the account menu. Collapsed (the button, or Mod+B as in the reference)
 * it keeps only icons; the choice, like the sections' open/closed, is kept per person
 * (stores/sidebar-preferences.ts usePanelCollapsed). In the phone drawer (`drawer`) it is never
 * collapsed, and its collapse button closes the drawer instead (the desktop choice is left alone).
 */
export function Sidebar({ drawer, onClose }: { drawer?: boolean; onClose?: () => void } = {}) {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const [sidebarCollapsed, setSidebarCollapsed] = usePanelCollapsed("sidebar");
  const [favoritesClosed, setFavoritesClosed] = usePanelCollapsed("sidebarFavorites");
  const [projectsClosed, setProjectsClosed] = usePanelCollapsed("sidebarProjects");
  const archivesPinned = useEntryPinned(slug, "archives");
  const projectsSnap = useSnapshot(projects);
  const shell = useShell();
  const collapsed = drawer ? false : sidebarCollapsed;

  useEffect(() => {
    if (drawer) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isSidebarShortcut(event)) return;
      event.preventDefault();
      toggleMainSidebar();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [drawer]);

  const list = projectsSnap.bySlug[slug];
  const mine = (list ?? []).filter((p) => p.is_member);

  return (
    <nav className={clsx("sidebar", collapsed && "sidebar-collapsed")} aria-label={t("workspace.sidebar.label")}>
      <div className="sidebar-top">
        <WorkspaceSwitcher collapsed={collapsed} />
        {drawer ? (
          <button
            type="button"
            className="sidebar-icon-btn sidebar-collapse-btn"
            onClick={onClose}
            aria-label={t("ui.nav.close")}
            title={t("ui.nav.close")}
          >
            <X size={18} />
          </button>
        ) : (
          <button
            type="button"
            className="sidebar-icon-btn sidebar-collapse-btn"
            onClick={() => setSidebarCollapsed(!collapsed)}
            aria-label={collapsed ? t("workspace.sidebar.expand") : t("workspace.sidebar.collapse")}
            title={`${collapsed ? t("workspace.sidebar.expand") : t("workspace.sidebar.collapse")} (${modKey()}+B)`}
            aria-expanded={!collapsed}
            aria-keyshortcuts="Control+B Meta+B"
          >
            {collapsed ? <PanelLeftOpen size={16} /> : <PanelLeftClose size={16} />}
          </button>
        )}
      </div>

      <div className="sidebar-scroll">
        <div className="sidebar-group">
          <SearchSidebarButton />
          <SidebarLink to={`/${slug}/`} end icon={<House size={16} />} label={t("workspace.sidebar.home")} />
          <NotificationsSidebarLink slug={slug} />
          <SidebarLink
            to={`/${slug}/projects/`}
            icon={<FolderKanban size={16} />}
            label={t("workspace.sidebar.projects")}
            exactPrefix={`/${slug}/projects/`}
            archives={!archivesPinned}
          />
          <WorkspaceEntries slug={slug} collapsed={collapsed} />
        </div>

        <FavoritesSection
          slug={slug}
          collapsed={collapsed}
          header={(action) => (
            <SectionHeader
              label={t("workspace.sidebar.favorites")}
              open={!favoritesClosed}
              onToggle={() => setFavoritesClosed(!favoritesClosed)}
              collapsed={collapsed}
              action={action}
            />
          )}
          open={!favoritesClosed || collapsed}
        />

        <div className="sidebar-group">
          <SectionHeader
            label={t("workspace.sidebar.yourProjects")}
            open={!projectsClosed}
            onToggle={() => setProjectsClosed(!projectsClosed)}
            collapsed={collapsed}
            action={
              can.createProject(role) && !collapsed ? (
                <button
                  type="button"
                  className="sidebar-hover-btn sidebar-section-action"
                  aria-label={t("workspace.sidebar.newProject")}
                  title={t("workspace.sidebar.newProject")}
                  onClick={shell.openCreateProject}
                >
                  <Plus size={14} />
                </button>
              ) : null
            }
          />
          {!projectsClosed || collapsed ? (
            list === undefined ? (
              <div className="sidebar-skeleton">
                <Skeleton height={12} width="70%" />
                <Skeleton height={12} width="55%" />
                <Skeleton height={12} width="62%" />
              </div>
            ) : mine.length === 0 ? (
              collapsed ? null : (
                <p className="sidebar-empty">
                  {t("workspace.sidebar.noProjects")}{" "}
                  {can.createProject(role) ? (
                    <button type="button" className="link-btn" onClick={shell.openCreateProject}>
                      {t("workspace.sidebar.createOne")}
                    </button>
                  ) : null}
                </p>
              )
            ) : (
              mine.map((p) => <SidebarProject key={p.id} project={p} collapsed={collapsed} />)
            )
          ) : null}
        </div>
      </div>

      <div className="sidebar-bottom">
        {workspace && can.invite(role) && !collapsed ? (
          <Link className="sidebar-row" to={`/${slug}/settings/members/?invite=1`}>
            <UserPlus size={16} className="sidebar-row-icon" />
            <span className="sidebar-label">{t("workspace.sidebar.invite")}</span>
          </Link>
        ) : null}
        <UserRow collapsed={collapsed} />
      </div>
    </nav>
  );
}

/** "Ctrl" or "⌘" in the collapse button's hint. */
function modKey(): string {
  return /mac|iphone|ipad|ipod/i.test(navigator.platform ?? "") ? "⌘" : "Ctrl";
}

function SectionHeader({
  label,
  open,
  onToggle,
  collapsed,
  action,
}: {
  label: string;
  open: boolean;
  onToggle: () => void;
  collapsed: boolean;
  action?: React.ReactNode;
}) {
  if (collapsed) return <div className="sidebar-divider" />;
  return (
    <div className="sidebar-section">
      <button type="button" className="sidebar-section-toggle" onClick={onToggle} aria-expanded={open}>
        <span>{label}</span>
        {open ? (
          <ChevronDown size={12} className="sidebar-section-chevron" />
        ) : (
          <ChevronRight size={12} className="sidebar-section-chevron" />
        )}
      </button>
      {action}
    </div>
  );
}

function SidebarProject({ project, collapsed }: { project: Project; collapsed: boolean }) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const location = useLocation();
  const settings = `/${slug}/projects/${project.id}/settings/`;
  const workItems = `/${slug}/projects/${project.id}/issues/`;
  const pagesPath = `/${slug}/projects/${project.id}/pages/`;
  const cyclesPath = `/${slug}/projects/${project.id}/cycles/`;
  const modulesPath = `/${slug}/projects/${project.id}/modules/`;
  const viewsPath = `/${slug}/projects/${project.id}/views/`;
  const epicsPath = `/${slug}/projects/${project.id}/epics/`;
  // The open project lists its sections under it (those its features turn on).
  const open = !collapsed && location.pathname.startsWith(`/${slug}/projects/${project.id}/`);
  return (
    <>
      <SidebarProjectRow project={project} collapsed={collapsed} settings={settings} workItems={workItems} />
      {open ? (
        <div className="sidebar-sections">
          <SidebarLink
            to={workItems}
            icon={<ListTodo size={14} />}
            label={t("workItems.title")}
            matchPrefix={workItems}
          />
          {project.cycle_view ? (
            <SidebarLink
              to={cyclesPath}
              icon={<Contrast size={14} />}
              label={t("cycles.nav")}
              matchPrefix={cyclesPath}
            />
          ) : null}
          {project.module_view ? (
            <SidebarLink
              to={modulesPath}
              icon={<Boxes size={14} />}
              label={t("modules.nav")}
              matchPrefix={modulesPath}
            />
          ) : null}
          {project.is_epic_enabled ? (
            <SidebarLink to={epicsPath} icon={<Sparkles size={14} />} label={t("epics.nav")} matchPrefix={epicsPath} />
          ) : null}
          {project.issue_views_view ? (
            <SidebarLink to={viewsPath} icon={<Layers size={14} />} label={t("views.nav")} matchPrefix={viewsPath} />
          ) : null}
          {project.page_view ? (
            <SidebarLink to={pagesPath} icon={<FileText size={14} />} label={t("pages.nav")} matchPrefix={pagesPath} />
          ) : null}
          {project.inbox_view ? <IntakeSidebarLink slug={slug} projectId={project.id} /> : null}
        </div>
      ) : null}
    </>
  );
}

function SidebarProjectRow({
  project,
  collapsed,
  settings,
  workItems,
}: {
  project: Project;
  collapsed: boolean;
  settings: string;
  workItems: string;
}) {
  const { t } = useTranslation();
  const { slug, role } = useCurrentWorkspace();
  const navigate = useNavigate();
  return (
    <div className="sidebar-item-wrap">
      <SidebarLink
        to={workItems}
        icon={<ProjectLogo name={project.name} logo={project.logo_props} size={18} />}
        label={project.name}
        matchPrefix={`/${slug}/projects/${project.id}/`}
      />
      {!collapsed ? (
        <Menu
          align="start"
          trigger={
            <button
              type="button"
              className="sidebar-hover-btn"
              aria-label={t("workspace.sidebar.projectMenu", { name: project.name })}
            >
              <Ellipsis size={14} />
            </button>
          }
        >
          <MenuItem icon={<Settings size={14} />} onSelect={() => navigate(settings)}>
            {t("workspace.sidebar.settings")}
          </MenuItem>
          <MenuItem icon={<Users size={14} />} onSelect={() => navigate(`${settings}members/`)}>
            {t("workspace.sidebar.members")}
          </MenuItem>
          <MenuItem
            icon={project.is_favorite ? <StarOff size={14} /> : <Star size={14} />}
            onSelect={() => void toggleFavoriteProject(slug, project)}
          >
            {project.is_favorite ? t("workspace.sidebar.removeFavorite") : t("workspace.sidebar.addFavorite")}
          </MenuItem>
          <MenuItem
            icon={<Copy size={14} />}
            onSelect={() => {
              void navigator.clipboard
                ?.writeText(`${window.location.origin}${workItems}`)
                .then(() => toast.success(t("workspace.sidebar.linkCopied")));
            }}
          >
            {t("workspace.sidebar.copyLink")}
          </MenuItem>
          {can.seeArchives(role) ? (
            <>
              <MenuSeparator />
              <MenuItem
                icon={<Archive size={14} />}
                onSelect={() => navigate(`/${slug}/projects/${project.id}/archives/issues/`)}
              >
                {t("workspace.sidebar.archives")}
              </MenuItem>
            </>
          ) : null}
        </Menu>
      ) : null}
    </div>
  );
}

function WorkspaceSwitcher({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const snap = useSnapshot(workspaces);
  const sessionSnap = useSnapshot(session);
  const navigate = useNavigate();
  const name = workspace?.name ?? "";
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="ws-switcher" aria-label={t("workspace.switcher.label", { name })}>
          {workspace ? (
            <WorkspaceLogo name={name} url={workspace.logo_url} size={22} />
          ) : (
            <Skeleton width={22} height={22} radius={6} />
          )}
          <span className="sidebar-label ws-switcher-name">{name}</span>
          {!collapsed ? <ChevronDown size={14} className="ws-switcher-chevron" /> : null}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-content ws-menu" align="start" sideOffset={6}>
          <div className="ws-menu-email">{sessionSnap.user?.email}</div>
          {snap.list.map((w) => (
            <DropdownMenu.Item key={w.id} className="menu-item" onSelect={() => navigate(`/${w.slug}/`)}>
              <WorkspaceLogo name={w.name} url={w.logo_url} size={20} />
              <span className="ws-menu-name">{w.name}</span>
              {w.slug === slug ? (
                <Check size={14} className="ws-menu-check" aria-label={t("workspace.switcher.current")} />
              ) : null}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate("/create-workspace/")}>
            <Plus size={14} />
            {t("workspace.switcher.create")}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          {can.seeWorkspaceSettings(role) ? (
            <DropdownMenu.Item className="menu-item" onSelect={() => navigate(`/${slug}/settings/`)}>
              <Settings size={14} />
              {t("workspace.switcher.settings")}
            </DropdownMenu.Item>
          ) : null}
          {can.invite(role) ? (
            <DropdownMenu.Item className="menu-item" onSelect={() => navigate(`/${slug}/settings/members/?invite=1`)}>
              <UserPlus size={14} />
              {t("workspace.switcher.invite")}
            </DropdownMenu.Item>
          ) : null}
          {sessionSnap.user && can.seeArchives(role) ? (
            <DropdownMenu.Item
              className="menu-item"
              onSelect={() => navigate(`/${slug}/profile/${sessionSnap.user?.id}/`)}
            >
              <UserRound size={14} />
              {t("memberProfile.yourWork")}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate("/profile/")}>
            <User size={14} />
            {t("workspace.switcher.profile")}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item
            className="menu-item menu-item-danger"
            onSelect={() => {
              signOut().catch(() => toast.error(t("workspace.switcher.signOutFailed")));
            }}
          >
            <LogOut size={14} />
            {t("workspace.switcher.signOut")}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * The person at the bottom of the sidebar: a menu of their own things (their work in this
 * workspace, their profile settings, signing out), where people look for them.
 */
function UserRow({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { slug, role } = useCurrentWorkspace();
  const navigate = useNavigate();
  const snap = useSnapshot(session);
  const user = snap.user;
  if (!user) return null;
  const name = personName(user);
  return (
    <Menu
      align="start"
      side="top"
      width={220}
      trigger={
        <button
          type="button"
          className="sidebar-row sidebar-user"
          aria-label={t("workspace.sidebar.accountMenu", { name })}
          title={name}
        >
          <Avatar name={name} src={user.avatar_url} size={20} />
          {!collapsed ? <span className="sidebar-label">{name}</span> : null}
        </button>
      }
    >
      <div className="ws-menu-email">{user.email}</div>
      {can.seeArchives(role) ? (
        <MenuItem icon={<UserRound size={14} />} onSelect={() => navigate(`/${slug}/profile/${user.id}/`)}>
          {t("memberProfile.yourWork")}
        </MenuItem>
      ) : null}
      <MenuItem icon={<User size={14} />} onSelect={() => navigate("/profile/")}>
        {t("workspace.switcher.profile")}
      </MenuItem>
      <MenuSeparator />
      <MenuItem
        danger
        icon={<LogOut size={14} />}
        onSelect={() => {
          signOut().catch(() => toast.error(t("workspace.switcher.signOutFailed")));
        }}
      >
        {t("workspace.switcher.signOut")}
      </MenuItem>
    </Menu>
  );
}
