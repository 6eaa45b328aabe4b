/**
 * The sidebar's workspace entries (product-domain §2 "Workspace menu"; stores/sidebar-preferences.ts):
 * the ones the person pinned, in their order, then "More" — a menu with the others and
 * "Customize sidebar", a dialog where each entry is shown or sent under More (a switch) and the
 * entries are put in order (dnd-kit: drag the handle, or Space, arrows, Space). Every entry stays
 * reachable: pinned in the sidebar, or one click away under More.
 *
 * Entries are those this product has and the person's role may open (product-domain §6: guests
 * see views and stickies; analytics, your work, drafts and archives need member or admin). The
 * reference's `active_cycles` key is kept by the server but not offered: its screen doesn't
 * exist here yet.
 */
import { DndContext, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { SidebarPreferenceKey } from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  BarChart3,
  Ellipsis,
  FilePen,
  GripVertical,
  Layers,
  Settings2,
  StickyNote,
  UserRound,
} from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { useSnapshot } from "valtio";
import { Button, Modal, ModalFooter } from "../../components/ui";
import { session } from "../../stores/session";
import {
  ensureSidebarPreferences,
  moveSidebarEntry,
  orderedEntries,
  type SidebarEntryState,
  setSidebarEntryPinned,
  sortOrderForMove,
  useSidebarPreferencesOf,
} from "../../stores/sidebar-preferences";
import { StickiesSidebarButton } from "../stickies/sidebar-entry";
import { Menu, MenuItem, MenuSeparator } from "./components/menu";
import { Toggle } from "./components/toggle";
import { can } from "./permissions";
import { dragAnnouncements, dragInstructions, useSettingsSensors, verticalOnly } from "./project-settings/dnd";
import { SidebarLink, sidebarRowActive } from "./sidebar-link";
import { useCurrentWorkspace, useShell } from "./use-workspace";
import "./sidebar-entries.css";

type EntryDef = {
  key: SidebarPreferenceKey;
  label: string;
  icon: (size: number) => ReactNode;
  /** Where a link entry goes, and the paths where it is the current one. */
  to?: string;
  matchPrefix?: string;
  /** What a button entry opens instead (the stickies list). */
  open?: () => void;
};

/** The entries this person may open in the workspace, in the product's own order. */
function useEntryDefs(): EntryDef[] {
  const { t } = useTranslation();
  const { slug, role } = useCurrentWorkspace();
  const shell = useShell();
  const userId = useSnapshot(session).user?.id;
  const member = can.seeArchives(role);
  const defs: EntryDef[] = [
    {
      key: "views",
      label: t("workspaceViews.sidebar"),
      icon: (size) => <Layers size={size} aria-hidden />,
      to: `/${slug}/workspace-views/all-issues/`,
      matchPrefix: `/${slug}/workspace-views/`,
    },
  ];
  if (member) {
    defs.push({
      key: "analytics",
      label: t("analytics.sidebar"),
      icon: (size) => <BarChart3 size={size} aria-hidden />,
      to: `/${slug}/analytics/`,
      matchPrefix: `/${slug}/analytics/`,
    });
  }
  if (member && userId) {
    defs.push({
      key: "your_work",
      label: t("memberProfile.yourWork"),
      icon: (size) => <UserRound size={size} aria-hidden />,
      to: `/${slug}/profile/${userId}/`,
      matchPrefix: `/${slug}/profile/${userId}/`,
    });
  }
  if (member) {
    defs.push(
      {
        key: "drafts",
        label: t("drafts.sidebar"),
        icon: (size) => <FilePen size={size} aria-hidden />,
        to: `/${slug}/drafts/`,
        matchPrefix: `/${slug}/drafts/`,
      },
      {
        key: "archives",
        label: t("workspace.sidebar.archives"),
        icon: (size) => <Archive size={size} aria-hidden />,
        to: `/${slug}/projects/archives/`,
        matchPrefix: `/${slug}/projects/archives/`,
      },
    );
  }
  defs.push({
    key: "stickies",
    label: t("stickies.sidebar"),
    icon: (size) => <StickyNote size={size} aria-hidden />,
    open: shell.openStickies,
  });
  return defs;
}

/** The person's entries of this workspace with their definitions, in the person's order. */
function useOrderedEntries(slug: string): (SidebarEntryState & { def: EntryDef })[] {
  const defs = useEntryDefs();
  const prefs = useSidebarPreferencesOf(slug);
  const byKey = new Map(defs.map((d) => [d.key, d]));
  return orderedEntries(
    prefs,
    defs.map((d) => d.key),
  ).flatMap((entry) => {
    const def = byKey.get(entry.key);
    return def ? [{ ...entry, def }] : [];
  });
}

/** Is `key` pinned in this person's sidebar? (The Projects row then leaves the archives to it.) */
export function useEntryPinned(slug: string, key: SidebarPreferenceKey): boolean {
  return useOrderedEntries(slug).some((e) => e.key === key && e.is_pinned);
}

/** The pinned entries, then "More" (the others and Customize sidebar). */
export function WorkspaceEntries({ slug, collapsed }: { slug: string; collapsed: boolean }) {
  const entries = useOrderedEntries(slug);
  const [customizing, setCustomizing] = useState(false);

  useEffect(() => {
    ensureSidebarPreferences(slug);
  }, [slug]);

  return (
    <>
      {entries
        .filter((e) => e.is_pinned)
        .map((e) => (
          <EntryRow key={e.key} def={e.def} />
        ))}
      <MoreMenu
        entries={entries.filter((e) => !e.is_pinned).map((e) => e.def)}
        collapsed={collapsed}
        onCustomize={() => setCustomizing(true)}
      />
      {customizing ? <CustomizeSidebar slug={slug} open onOpenChange={setCustomizing} /> : null}
    </>
  );
}

function EntryRow({ def }: { def: EntryDef }) {
  if (def.key === "stickies") return <StickiesSidebarButton />;
  if (!def.to) return null;
  return <SidebarLink to={def.to} icon={def.icon(16)} label={def.label} matchPrefix={def.matchPrefix} />;
}

function MoreMenu({
  entries,
  collapsed,
  onCustomize,
}: {
  entries: EntryDef[];
  collapsed: boolean;
  onCustomize: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // The page open now is one of the entries under More: More is where it is.
  const here = entries.some((e) => e.matchPrefix && sidebarRowActive(pathname, { matchPrefix: e.matchPrefix }));
  const label = t("workspace.sidebar.more");
  return (
    <Menu
      align="start"
      side={collapsed ? "right" : "bottom"}
      width={220}
      trigger={
        <button
          type="button"
          className={clsx("sidebar-row sidebar-button sidebar-more", here && "active")}
          title={label}
          data-testid="sidebar-more"
        >
          <span className="sidebar-row-icon">
            <Ellipsis size={16} aria-hidden />
          </span>
          <span className="sidebar-label">{label}</span>
        </button>
      }
    >
      {entries.map((e) => (
        <MenuItem
          key={e.key}
          icon={e.icon(14)}
          onSelect={() => {
            if (e.open) e.open();
            else if (e.to) navigate(e.to);
          }}
        >
          {e.label}
        </MenuItem>
      ))}
      {entries.length > 0 ? <MenuSeparator /> : null}
      <MenuItem icon={<Settings2 size={14} aria-hidden />} onSelect={onCustomize}>
        {t("workspace.sidebar.customize.open")}
      </MenuItem>
    </Menu>
  );
}

/** The dialog that pins, unpins and orders the entries. */
function CustomizeSidebar({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const entries = useOrderedEntries(slug);
  const sensors = useSettingsSensors();
  const nameOf = (key: string) => entries.find((e) => e.key === key)?.def.label ?? key;

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const from = entries.findIndex((e) => e.key === active.id);
    const to = entries.findIndex((e) => e.key === over.id);
    const sortOrder = sortOrderForMove(entries, from, to);
    const moved = entries[from];
    if (sortOrder !== null && moved) void moveSidebarEntry(slug, moved.key, sortOrder);
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("workspace.sidebar.customize.title")}
      description={t("workspace.sidebar.customize.description")}
      width={440}
      className="sbc-dialog"
    >
      <DndContext
        sensors={sensors}
        modifiers={[verticalOnly]}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements: dragAnnouncements(t, nameOf),
          screenReaderInstructions: dragInstructions(t),
        }}
      >
        <SortableContext items={entries.map((e) => e.key)} strategy={verticalListSortingStrategy}>
          <ul className="sbc-list" data-testid="sidebar-customize-list">
            {entries.map((e) => (
              <CustomizeRow key={e.key} slug={slug} entry={e} />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <p className="sbc-always">{t("workspace.sidebar.customize.always")}</p>
      <ModalFooter>
        <Button onClick={() => onOpenChange(false)}>{t("workspace.sidebar.customize.done")}</Button>
      </ModalFooter>
    </Modal>
  );
}

function CustomizeRow({ slug, entry }: { slug: string; entry: SidebarEntryState & { def: EntryDef } }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: entry.key,
  });
  const name = entry.def.label;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={clsx("sbc-row", isDragging && "is-dragging")}
      data-testid="sidebar-customize-row"
      data-entry={entry.key}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="sbc-handle"
        {...attributes}
        {...listeners}
        aria-label={t("workspace.sidebar.customize.reorder", { name })}
      >
        <GripVertical size={14} aria-hidden />
      </button>
      <span className="sbc-icon">{entry.def.icon(16)}</span>
      <span className="sbc-text">
        <span className="sbc-name">{name}</span>
        <span className="sbc-where">
          {entry.is_pinned ? t("workspace.sidebar.customize.inSidebar") : t("workspace.sidebar.customize.underMore")}
        </span>
      </span>
      <Toggle
        checked={entry.is_pinned}
        onCheckedChange={(pinned) => void setSidebarEntryPinned(slug, entry.key, pinned)}
        label={t("workspace.sidebar.customize.show", { name })}
      />
    </li>
  );
}
