/**
 * The command palette (Mod+K anywhere in a workspace; the sidebar's Search): one box that finds
 * anything the person may see (the server's ranked search, stores/search.ts), jumps to any
 * screen, and runs actions — create a work item, page, cycle, module or view (the screen that owns
 * the form opens it: lib/create-intent.ts), change the open work item's state, priority,
 * assignees or labels, switch the theme, sign out — with nested pages (a project to create in, a
 * state to set). Built on cmdk (the list's keyboard, roles and active item); the matching of our
 * own commands is ours, so the server's ranked results keep their order beside them.
 *
 * Empty query: the open work item's actions, recent searches, then creating and navigating.
 * Backspace in an empty box goes back a page; Escape closes. On a phone it is a full-screen sheet.
 */
import { PRIORITIES, type Priority, personName, ROLE } from "@tideline/shared";
import { Command } from "cmdk";
import {
  Archive,
  Bell,
  Boxes,
  Check,
  ChevronLeft,
  Contrast,
  CornerDownLeft,
  FilePen,
  FileText,
  FolderKanban,
  History,
  House,
  Inbox,
  Keyboard,
  Layers,
  ListTodo,
  LogOut,
  MoonStar,
  PanelLeft,
  Plus,
  Search,
  Settings,
  SunMedium,
  Tag,
  UserRound,
  X,
} from "lucide-react";
import { Dialog } from "radix-ui";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Spinner } from "../../components/ui";
import { type CreateKind, requestCreate } from "../../lib/create-intent";
import { useIsNarrow } from "../../lib/use-media";
import { home, loadRecents, type RecentVisit, recentVisitPath } from "../../stores/home";
import { saveTheme } from "../../stores/profile";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { type Project, projects } from "../../stores/projects";
import {
  emptyResults,
  hitsOf,
  isAbandoned,
  recentSearches,
  rememberSearch,
  resultPath,
  type SearchHit,
  type SearchResults,
  searchWorkspace,
} from "../../stores/search";
import { session, signOut } from "../../stores/session";
import { toggleMainSidebar } from "../../stores/sidebar-preferences";
import { theme } from "../../stores/theme";
import { patchWorkItem } from "../../stores/work-item-detail";
import { useWorkItem } from "../../stores/work-items";
import { PriorityIcon, StateIcon } from "../work-item/state-icon";
import { can } from "../workspace/permissions";
import { useCurrentWorkspace, useShell } from "../workspace/use-workspace";
import { paletteContext } from "./palette-context";
import { keyLabel } from "./shortcuts";
import "./command-palette.css";

type Page =
  | { kind: "root" }
  | { kind: "project"; create: CreateKind }
  | { kind: "state" }
  | { kind: "priority" }
  | { kind: "assignees" }
  | { kind: "labels" }
  | { kind: "theme" };

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Open the shortcut help (the palette closes first). */
  onShowShortcuts: () => void;
};

/** A command of ours: matched by its words against the query (every word must appear). */
type Entry = {
  id: string;
  label: string;
  keywords?: string;
  icon: ReactNode;
  hint?: ReactNode;
  run: () => void;
  /** Shown ticked (the current state, an assignee already set). */
  checked?: boolean;
};

type Section = { heading: string; entries: Entry[] };

/** Every word of the query appears in the entry's label or keywords (case-insensitive). */
function matches(entry: Entry, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = `${entry.label} ${entry.keywords ?? ""}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

const SEARCH_DELAY_MS = 120;
/** How many recently opened items an empty box offers. */
const RECENTLY_OPENED = 5;

export function CommandPalette({ open, onOpenChange, onShowShortcuts }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const shell = useShell();
  const { slug, role } = useCurrentWorkspace();
  const user = useSnapshot(session).user;
  const userId = user?.id ?? "";
  const projectsSnap = useSnapshot(projects);
  const metaSnap = useSnapshot(projectMeta);
  const themeSnap = useSnapshot(theme);
  const narrow = useIsNarrow();
  const recentVisits = (useSnapshot(home).bySlug[slug]?.recents.lists.all?.items ?? []) as readonly RecentVisit[];

  const [pages, setPages] = useState<Page[]>([{ kind: "root" }]);
  const page = pages[pages.length - 1] ?? { kind: "root" };
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResults>(emptyResults);
  const [searching, setSearching] = useState(false);
  const [searchFailed, setSearchFailed] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // Where it was opened: read once per opening (the screen under it doesn't change meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read when it opens
  const context = useMemo(() => paletteContext(slug, location.pathname, location.search), [open, slug]);
  const workItem = useWorkItem(context.workItem?.id);
  const itemProjectId = context.workItem?.projectId ?? null;
  const itemMeta = itemProjectId ? metaSnap.byProject[itemProjectId] : undefined;

  const memberProjects = useMemo(
    () => ((projectsSnap.bySlug[slug] ?? []) as readonly Project[]).filter((p) => p.is_member && !p.archived_at),
    [projectsSnap.bySlug, slug],
  );
  const projectById = (id: string | null) => (id ? memberProjects.find((p) => p.id === id) : undefined);
  const currentProject = projectById(context.projectId);
  const itemProject = projectById(itemProjectId);
  const canEditItem = Boolean(workItem && !workItem.archived_at && (itemProject?.member_role ?? 0) >= ROLE.member);

  // Each opening starts fresh at the root with an empty box.
  useEffect(() => {
    if (!open) return;
    setPages([{ kind: "root" }]);
    setQuery("");
    setResults(emptyResults());
    setSearchFailed(false);
  }, [open]);

  // What the person opened lately (the server's recent visits, as home's Recents shows them).
  useEffect(() => {
    if (open && slug) void loadRecents(slug, "all").catch(() => undefined);
  }, [open, slug]);

  // The open item's states, labels and members, for its nested pages.
  useEffect(() => {
    if (open && itemProjectId) void loadProjectMeta(slug, itemProjectId).catch(() => undefined);
  }, [open, slug, itemProjectId]);

  // Ask the server as the person types (the root page only); a newer question aborts the older.
  const trimmed = query.trim();
  const searchable = page.kind === "root" && trimmed.length > 0;
  useEffect(() => {
    if (!open || !searchable) {
      setSearching(false);
      return;
    }
    const controller = new AbortController();
    setSearching(true);
    const timer = window.setTimeout(() => {
      searchWorkspace(slug, trimmed, { signal: controller.signal })
        .then((answer) => {
          setResults(answer);
          setSearchFailed(false);
          setSearching(false);
        })
        .catch((error) => {
          if (isAbandoned(error)) return;
          setSearchFailed(true);
          setSearching(false);
        });
    }, SEARCH_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [open, searchable, slug, trimmed]);

  const close = () => onOpenChange(false);
  const push = (next: Page) => {
    setPages((stack) => [...stack, next]);
    setQuery("");
  };
  const back = () => {
    setPages((stack) => (stack.length > 1 ? stack.slice(0, -1) : stack));
    setQuery("");
  };
  const go = (path: string) => {
    close();
    navigate(path);
  };

  // ───── creating: in the screen's project, or one picked on a nested page ─────
  const createIn = (kind: CreateKind, projectId: string) => {
    requestCreate(kind, projectId);
    const base = `/${slug}/projects/${projectId}`;
    const target: Record<CreateKind, string> = {
      workItem: `${base}/issues/`,
      page: `${base}/pages/`,
      cycle: `${base}/cycles/`,
      module: `${base}/modules/`,
      view: `${base}/views/`,
    };
    // A work item is made on the project's board the person is on (its cycle or module goes with
    // it); anything else on its list, where the new one shows.
    const here =
      kind === "workItem"
        ? location.pathname.startsWith(`${base}/`) &&
          /\/(issues|cycles\/[^/]+|modules\/[^/]+)\/$/.test(location.pathname)
        : location.pathname === target[kind];
    close();
    if (!here) navigate(target[kind]);
  };
  const featureOn = (kind: CreateKind, p: Project) =>
    kind === "workItem"
      ? true
      : kind === "page"
        ? p.page_view !== false
        : kind === "cycle"
          ? Boolean(p.cycle_view)
          : kind === "module"
            ? Boolean(p.module_view)
            : Boolean(p.issue_views_view);
  const creatableIn = (kind: CreateKind) =>
    memberProjects.filter((p) => (p.member_role ?? 0) >= ROLE.member && featureOn(kind, p));
  const startCreate = (kind: CreateKind) => {
    const here = currentProject && creatableIn(kind).some((p) => p.id === currentProject.id);
    if (here && currentProject) createIn(kind, currentProject.id);
    else push({ kind: "project", create: kind });
  };

  // ───── the open work item's changes ─────
  const change = (patch: Parameters<typeof patchWorkItem>[3], message: string) => {
    if (!workItem || !itemProjectId) return;
    void patchWorkItem(slug, itemProjectId, workItem.id, patch);
    toast.success(message);
  };

  // Built on every render: a few dozen entries, and the closures read the current state.
  const sections: Section[] = (() => {
    const list: Section[] = [];
    const p = `/${slug}`;
    if (page.kind === "root") {
      if (workItem && canEditItem && itemProject) {
        const key = `${itemProject.identifier}-${workItem.sequence_id}`;
        list.push({
          heading: t("palette.groups.workItem", { key }),
          entries: [
            {
              id: "wi-state",
              label: t("palette.workItem.state"),
              keywords: "status move",
              icon: <StateIcon group={workItem.state__group} />,
              run: () => push({ kind: "state" }),
            },
            {
              id: "wi-priority",
              label: t("palette.workItem.priority"),
              keywords: "urgent high medium low",
              icon: <PriorityIcon priority={workItem.priority} />,
              run: () => push({ kind: "priority" }),
            },
            {
              id: "wi-assignees",
              label: t("palette.workItem.assignees"),
              keywords: "assign people member",
              icon: <UserRound size={15} />,
              run: () => push({ kind: "assignees" }),
            },
            {
              id: "wi-labels",
              label: t("palette.workItem.labels"),
              keywords: "label tag",
              icon: <Tag size={15} />,
              run: () => push({ kind: "labels" }),
            },
          ],
        });
      }
      if (!trimmed && recentVisits.length) {
        list.push({
          heading: t("palette.groups.recentlyOpened"),
          entries: recentVisits.slice(0, RECENTLY_OPENED).map((visit) => ({
            id: `visit-${visit.id}`,
            label:
              visit.entity_name === "issue"
                ? `${visit.entity_data.project_identifier}-${visit.entity_data.sequence_id} ${visit.entity_data.name}`
                : visit.entity_data.name || t("palette.untitled"),
            icon:
              visit.entity_name === "issue" ? (
                <ListTodo size={15} />
              ) : visit.entity_name === "page" ? (
                <FileText size={15} />
              ) : (
                <FolderKanban size={15} />
              ),
            hint: <span className="palette-kind">{t(`palette.kinds.${visit.entity_name}`)}</span>,
            run: () => go(recentVisitPath(slug, visit)),
          })),
        });
      }
      if (!trimmed && userId) {
        const recent = recentSearches(userId, slug);
        if (recent.length)
          list.push({
            heading: t("palette.groups.recentSearches"),
            entries: recent.map((q) => ({
              id: `recent-${q}`,
              label: q,
              icon: <History size={15} />,
              run: () => setQuery(q),
            })),
          });
      }
      const creating: Entry[] = [];
      const addCreate = (kind: CreateKind, label: string, icon: ReactNode, keywords: string) => {
        if (creatableIn(kind).length)
          creating.push({ id: `new-${kind}`, label, icon, keywords, run: () => startCreate(kind) });
      };
      addCreate("workItem", t("palette.create.workItem"), <Plus size={15} />, "new issue task add");
      addCreate("page", t("palette.create.page"), <FileText size={15} />, "new document add");
      addCreate("cycle", t("palette.create.cycle"), <Contrast size={15} />, "new sprint add");
      addCreate("module", t("palette.create.module"), <Boxes size={15} />, "new add");
      addCreate("view", t("palette.create.view"), <Layers size={15} />, "new saved filter add");
      if (can.createProject(role))
        creating.push({
          id: "new-project",
          label: t("palette.create.project"),
          keywords: "new add",
          icon: <FolderKanban size={15} />,
          run: () => {
            close();
            shell.openCreateProject();
          },
        });
      list.push({ heading: t("palette.groups.create"), entries: creating });

      const nav: Entry[] = [
        { id: "go-home", label: t("palette.go.home"), icon: <House size={15} />, run: () => go(`${p}/`) },
        {
          id: "go-notifications",
          label: t("palette.go.notifications"),
          keywords: "inbox",
          icon: <Bell size={15} />,
          run: () => go(`${p}/notifications/`),
        },
        {
          id: "go-projects",
          label: t("palette.go.projects"),
          icon: <FolderKanban size={15} />,
          run: () => go(`${p}/projects/`),
        },
        {
          id: "go-views",
          label: t("palette.go.workspaceViews"),
          keywords: "all issues assigned created subscribed",
          icon: <Layers size={15} />,
          run: () => go(`${p}/workspace-views/all-issues/`),
        },
      ];
      if (can.seeArchives(role)) {
        nav.push(
          {
            id: "go-your-work",
            label: t("palette.go.yourWork"),
            keywords: "profile assigned mine",
            icon: <UserRound size={15} />,
            run: () => go(`${p}/profile/${userId}/`),
          },
          {
            id: "go-drafts",
            label: t("palette.go.drafts"),
            icon: <FilePen size={15} />,
            run: () => go(`${p}/drafts/`),
          },
          {
            id: "go-archives",
            label: t("palette.go.archives"),
            keywords: "archived projects",
            icon: <Archive size={15} />,
            run: () => go(`${p}/projects/archives/`),
          },
        );
      }
      nav.push(
        {
          id: "go-settings",
          label: t("palette.go.workspaceSettings"),
          keywords: "members preferences",
          icon: <Settings size={15} />,
          run: () => go(`${p}/settings/`),
        },
        {
          id: "go-profile",
          label: t("palette.go.profileSettings"),
          keywords: "account appearance password",
          icon: <UserRound size={15} />,
          run: () => go("/profile/"),
        },
      );
      // A project's screens: the current project's always, every project's once something is typed.
      const projectScreens = (project: Project): Entry[] => {
        const base = `${p}/projects/${project.id}`;
        const entry = (id: string, label: string, path: string, icon: ReactNode): Entry => ({
          id: `${project.id}-${id}`,
          label: `${project.name} › ${label}`,
          keywords: project.identifier,
          icon,
          run: () => go(path),
        });
        const out = [entry("issues", t("workItems.title"), `${base}/issues/`, <ListTodo size={15} />)];
        if (project.cycle_view) out.push(entry("cycles", t("cycles.nav"), `${base}/cycles/`, <Contrast size={15} />));
        if (project.module_view) out.push(entry("modules", t("modules.nav"), `${base}/modules/`, <Boxes size={15} />));
        if (project.issue_views_view) out.push(entry("views", t("views.nav"), `${base}/views/`, <Layers size={15} />));
        if (project.page_view !== false)
          out.push(entry("pages", t("palette.go.pages"), `${base}/pages/`, <FileText size={15} />));
        if (project.inbox_view)
          out.push(entry("intake", t("palette.go.intake"), `${base}/intake/`, <Inbox size={15} />));
        out.push(entry("settings", t("palette.go.projectSettings"), `${base}/settings/`, <Settings size={15} />));
        return out;
      };
      if (currentProject) nav.push(...projectScreens(currentProject));
      if (trimmed)
        for (const project of memberProjects) if (project !== currentProject) nav.push(...projectScreens(project));
      list.push({ heading: t("palette.groups.navigate"), entries: nav });

      list.push({
        heading: t("palette.groups.preferences"),
        entries: [
          {
            id: "theme",
            label: t("palette.theme.change"),
            keywords: "dark light appearance",
            icon: <SunMedium size={15} />,
            run: () => push({ kind: "theme" }),
          },
          // On a phone the sidebar is a drawer: nothing to collapse.
          ...(narrow
            ? []
            : [
                {
                  id: "toggle-sidebar",
                  label: t("palette.toggleSidebar"),
                  keywords: "collapse expand hide show navigation",
                  icon: <PanelLeft size={15} />,
                  hint: <span className="palette-kind">{`${keyLabel("Mod")}+B`}</span>,
                  run: () => {
                    close();
                    toggleMainSidebar();
                  },
                },
              ]),
          {
            id: "shortcuts",
            label: t("palette.shortcuts"),
            keywords: "keyboard keys help",
            icon: <Keyboard size={15} />,
            run: () => {
              close();
              onShowShortcuts();
            },
          },
          {
            id: "sign-out",
            label: t("palette.signOut"),
            keywords: "log out leave",
            icon: <LogOut size={15} />,
            run: () => {
              close();
              signOut().catch(() => toast.error(t("workspace.switcher.signOutFailed")));
            },
          },
        ],
      });
    } else if (page.kind === "project") {
      list.push({
        heading: t("palette.pickProject"),
        entries: creatableIn(page.create).map((project) => ({
          id: `in-${project.id}`,
          label: project.name,
          keywords: project.identifier,
          icon: <FolderKanban size={15} />,
          hint: <span className="palette-identifier">{project.identifier}</span>,
          run: () => createIn(page.create, project.id),
        })),
      });
    } else if (page.kind === "state" && workItem) {
      list.push({
        heading: t("palette.workItem.state"),
        entries: (itemMeta?.states ?? []).map((state) => ({
          id: `state-${state.id}`,
          label: state.name,
          keywords: state.group,
          icon: <StateIcon group={state.group} color={state.color} />,
          checked: workItem.state_id === state.id,
          run: () => {
            close();
            if (workItem.state_id !== state.id)
              change({ state_id: state.id }, t("palette.workItem.stateChanged", { state: state.name }));
          },
        })),
      });
    } else if (page.kind === "priority" && workItem) {
      list.push({
        heading: t("palette.workItem.priority"),
        entries: PRIORITIES.map((priority) => ({
          id: `priority-${priority}`,
          label: t(`workItem.priority.${priority}`),
          icon: <PriorityIcon priority={priority as Priority} />,
          checked: workItem.priority === priority,
          run: () => {
            close();
            if (workItem.priority !== priority)
              change(
                { priority: priority as Priority },
                t("palette.workItem.priorityChanged", { priority: t(`workItem.priority.${priority}`) }),
              );
          },
        })),
      });
    } else if (page.kind === "assignees" && workItem) {
      list.push({
        heading: t("palette.workItem.assignees"),
        entries: (itemMeta?.members ?? [])
          .filter((m) => m.role >= ROLE.member)
          .map((m) => {
            const on = workItem.assignee_ids.includes(m.member);
            return {
              id: `assignee-${m.member}`,
              label: personName(m.member_details),
              keywords: m.member_details.email,
              icon: <UserRound size={15} />,
              checked: on,
              // Several people may be assigned: each pick toggles one and the page stays open.
              run: () => {
                const next = on
                  ? workItem.assignee_ids.filter((id) => id !== m.member)
                  : [...workItem.assignee_ids, m.member];
                void patchWorkItem(slug, itemProjectId ?? "", workItem.id, { assignee_ids: next });
              },
            };
          }),
      });
    } else if (page.kind === "labels" && workItem) {
      list.push({
        heading: t("palette.workItem.labels"),
        entries: (itemMeta?.labels ?? []).map((label) => {
          const on = workItem.label_ids.includes(label.id);
          return {
            id: `label-${label.id}`,
            label: label.name,
            icon: <span className="palette-label-dot" style={{ background: label.color }} aria-hidden />,
            checked: on,
            run: () => {
              const next = on ? workItem.label_ids.filter((id) => id !== label.id) : [...workItem.label_ids, label.id];
              void patchWorkItem(slug, itemProjectId ?? "", workItem.id, { label_ids: next });
            },
          };
        }),
      });
    } else if (page.kind === "theme") {
      const themes: { name: "system" | "light" | "dark"; icon: ReactNode }[] = [
        { name: "system", icon: <Contrast size={15} /> },
        { name: "light", icon: <SunMedium size={15} /> },
        { name: "dark", icon: <MoonStar size={15} /> },
      ];
      list.push({
        heading: t("palette.theme.change"),
        entries: themes.map(({ name, icon }) => ({
          id: `theme-${name}`,
          label: t(`palette.theme.${name}`),
          icon,
          checked: themeSnap.name === name,
          run: () => {
            close();
            void saveTheme(name);
          },
        })),
      });
    }
    return list;
  })();

  const shownSections = sections
    .map((s) => ({ ...s, entries: s.entries.filter((e) => matches(e, trimmed)) }))
    .filter((s) => s.entries.length > 0);
  const hits = searchable ? hitsOf(results) : [];
  const nothing = !searching && shownSections.length === 0 && hits.length === 0;

  const openHit = (hit: SearchHit) => {
    if (userId) rememberSearch(userId, slug, trimmed);
    go(resultPath(slug, hit));
  };

  const placeholder =
    page.kind === "root"
      ? t("palette.placeholder")
      : page.kind === "project"
        ? t("palette.pickProject")
        : t("palette.filter");

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay palette-overlay" />
        <Dialog.Content
          className="palette"
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            inputRef.current?.focus();
          }}
        >
          <Dialog.Title className="visually-hidden">{t("palette.title")}</Dialog.Title>
          <Command
            label={t("palette.title")}
            shouldFilter={false}
            loop
            onKeyDown={(event) => {
              if (event.key === "Backspace" && query === "" && pages.length > 1) {
                event.preventDefault();
                back();
              }
            }}
          >
            <div className="palette-input-row">
              {pages.length > 1 ? (
                <button type="button" className="palette-back" onClick={back} aria-label={t("palette.back")}>
                  <ChevronLeft size={16} />
                </button>
              ) : (
                <Search size={16} className="muted" aria-hidden />
              )}
              <Command.Input
                ref={inputRef}
                value={query}
                onValueChange={setQuery}
                placeholder={placeholder}
                className="palette-input"
              />
              {searching ? <Spinner label={t("palette.searching")} /> : null}
              <button type="button" className="palette-close" onClick={close} aria-label={t("palette.close")}>
                <X size={16} />
              </button>
            </div>
            <Command.List className="palette-list" label={t("palette.results")}>
              {hits.length > 0 ? (
                <Command.Group heading={t("palette.groups.results")}>
                  {hits.map((hit) => (
                    <Command.Item
                      key={`${hit.group}-${hit.result.id}`}
                      value={`${hit.group}-${hit.result.id}`}
                      onSelect={() => openHit(hit)}
                      className="palette-item"
                    >
                      <HitRow hit={hit} />
                    </Command.Item>
                  ))}
                </Command.Group>
              ) : null}
              {shownSections.map((section) => (
                <Command.Group key={section.heading} heading={section.heading}>
                  {section.entries.map((entry) => (
                    <Command.Item
                      key={entry.id}
                      value={entry.id}
                      onSelect={entry.run}
                      className="palette-item"
                      data-checked={entry.checked ? "" : undefined}
                    >
                      <span className="palette-item-icon">{entry.icon}</span>
                      <span className="palette-item-label">{entry.label}</span>
                      {entry.hint}
                      {entry.checked ? (
                        <Check size={14} className="palette-check" aria-label={t("palette.current")} />
                      ) : null}
                    </Command.Item>
                  ))}
                </Command.Group>
              ))}
              {nothing ? (
                <div className="palette-empty" role="status">
                  {searchFailed ? t("palette.searchFailed") : t("palette.nothing", { query: trimmed })}
                </div>
              ) : null}
            </Command.List>
            <div className="palette-footer" aria-hidden>
              <span>
                <kbd>↑</kbd>
                <kbd>↓</kbd> {t("palette.footer.move")}
              </span>
              <span>
                <kbd>
                  <CornerDownLeft size={11} />
                </kbd>{" "}
                {t("palette.footer.open")}
              </span>
              {pages.length > 1 ? (
                <span>
                  <kbd>⌫</kbd> {t("palette.footer.back")}
                </span>
              ) : null}
              <span>
                <kbd>{keyLabel("Mod")}</kbd>
                <kbd>K</kbd> {t("palette.footer.toggle")}
              </span>
            </div>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const HIT_ICONS = {
  issue: ListTodo,
  project: FolderKanban,
  page: FileText,
  cycle: Contrast,
  module: Boxes,
  issue_view: Layers,
  workspace: House,
} as const;

function HitRow({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation();
  const Icon = HIT_ICONS[hit.group];
  const key =
    hit.group === "issue"
      ? `${hit.result.project__identifier}-${hit.result.sequence_id}`
      : hit.group === "project"
        ? hit.result.identifier
        : hit.group === "cycle" || hit.group === "module" || hit.group === "issue_view"
          ? hit.result.project__identifier
          : hit.group === "page"
            ? (hit.result.project__identifiers[0] ?? "")
            : "";
  return (
    <>
      <span className="palette-item-icon">
        <Icon size={15} />
      </span>
      {hit.group === "issue" ? <span className="palette-identifier">{key}</span> : null}
      <span className="palette-item-label">{hit.result.name || t("palette.untitled")}</span>
      <span className="palette-kind">
        {t(`palette.kinds.${hit.group}`)}
        {hit.group !== "issue" && key ? ` · ${key}` : ""}
      </span>
    </>
  );
}
