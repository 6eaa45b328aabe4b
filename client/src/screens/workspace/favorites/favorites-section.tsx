/**
 * The sidebar's Favorites (product-domain §2): the person's favorites and folders, in their
 * order. Drag a row (dnd-kit: a pointer that moves a few pixels, or Space and the arrows) onto
 * another to put it just before that one, onto a folder to file it there, or onto the space
 * below the list to bring it back to the top level. Folders open and close (remembered per
 * person on this device), are renamed in place and made with "New folder". Every change shows
 * at once and is undone if the server refuses (stores/favorites.ts).
 */
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import clsx from "clsx";
import {
  ChevronDown,
  ChevronRight,
  Contrast,
  FileText,
  Folder,
  FolderOpen,
  FolderPlus,
  Layers,
  Package,
  Pencil,
  StarOff,
  Trash2,
} from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useSnapshot } from "valtio";
import { readLocal, writeLocal } from "../../../lib/local-storage";
import {
  createFolder,
  type Favorite,
  favorites,
  favoritesIn,
  moveFavorite,
  removeFavorite,
  renameFolder,
} from "../../../stores/favorites";
import { projects } from "../../../stores/projects";
import { session } from "../../../stores/session";
import { ProjectLogo } from "../components/logos";
import "./favorites.css";

const ROOT_END = "favorites-root-end";

/** Where a favorite opens. */
function favoriteHref(slug: string, f: Favorite): string | null {
  const id = f.entity_identifier;
  const project = f.project_id;
  if (!id) return null;
  switch (f.entity_type) {
    case "project":
      return `/${slug}/projects/${id}/issues/`;
    case "cycle":
      return `/${slug}/projects/${project}/cycles/${id}/`;
    case "module":
      return `/${slug}/projects/${project}/modules/${id}/`;
    case "view":
      return `/${slug}/projects/${project}/views/${id}/`;
    case "page":
      return `/${slug}/projects/${project}/pages/${id}/`;
    default:
      return null;
  }
}

/** Folders opened or closed, per person on this device. */
function useFolderState(userId: string | undefined): [(id: string) => boolean, (id: string, open: boolean) => void] {
  const key = `tideline:favorite-folders:${userId ?? "anonymous"}`;
  const [state, setState] = useState<Record<string, boolean>>(() => readLocal(key, {}));
  const isOpen = (id: string) => state[id] ?? true;
  const set = (id: string, open: boolean) =>
    setState((current) => {
      const next = { ...current, [id]: open };
      writeLocal(key, next);
      return next;
    });
  return [isOpen, set];
}

export function FavoritesSection({
  slug,
  collapsed,
  header,
  open,
}: {
  slug: string;
  collapsed: boolean;
  /** The section is open (its header's toggle); closed, only the header shows. */
  open: boolean;
  /** The section's header, given the New folder button to show in it. */
  header: (action: ReactNode) => ReactNode;
}) {
  const { t } = useTranslation();
  const snap = useSnapshot(favorites);
  const userId = useSnapshot(session).user?.id;
  const list = (snap.bySlug[slug] ?? []) as readonly Favorite[];
  const [isOpen, setOpen] = useFolderState(userId);
  const [naming, setNaming] = useState(false);
  const [dragging, setDragging] = useState<Favorite | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor),
  );

  const top = favoritesIn(list, null);
  const byId = new Map(list.map((f) => [f.id, f]));

  const onDragStart = (event: DragStartEvent) => setDragging(byId.get(String(event.active.id)) ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setDragging(null);
    const moved = byId.get(String(event.active.id));
    const overId = event.over ? String(event.over.id) : null;
    if (!moved || !overId || overId === moved.id) return;
    if (overId === ROOT_END) {
      void moveFavorite(slug, moved.id, null, null);
      return;
    }
    const target = byId.get(overId);
    if (!target) return;
    if (target.is_folder && !moved.is_folder) {
      // Onto a folder: filed in it, at its end.
      if (moved.parent !== target.id) void moveFavorite(slug, moved.id, target.id, null);
      return;
    }
    // Onto a row: just before it, in its level; a folder stays at the top level.
    if (moved.is_folder && target.parent) {
      void moveFavorite(slug, moved.id, null, target.parent);
      return;
    }
    void moveFavorite(slug, moved.id, target.parent, target.id);
  };

  const newFolder = collapsed ? null : (
    <button
      type="button"
      className="sidebar-hover-btn sidebar-section-action"
      aria-label={t("favorites.newFolder")}
      title={t("favorites.newFolder")}
      onClick={() => setNaming(true)}
    >
      <FolderPlus size={14} />
    </button>
  );

  if (list.length === 0 && !naming) return null;

  if (!open) return <div className="sidebar-group">{header(newFolder)}</div>;

  if (collapsed) {
    // Icons only: every favorite that opens something, in order, folders' contents after them.
    const flat = top.flatMap((f) => (f.is_folder ? favoritesIn(list, f.id) : [f]));
    return (
      <div className="sidebar-group">
        {header(null)}
        {flat.map((f) => (
          <FavoriteLink key={f.id} slug={slug} favorite={f} />
        ))}
      </div>
    );
  }

  return (
    <div className="sidebar-group favorites-section">
      {header(newFolder)}
      {naming ? (
        <FolderNameInput
          initial=""
          label={t("favorites.folderName")}
          onDone={(name) => {
            setNaming(false);
            if (name) void createFolder(slug, name);
          }}
        />
      ) : null}
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
        accessibility={{
          screenReaderInstructions: { draggable: t("favorites.dragInstructions") },
        }}
      >
        {top.map((f) =>
          f.is_folder ? (
            <FolderRow
              key={f.id}
              slug={slug}
              folder={f}
              open={isOpen(f.id)}
              onToggle={() => setOpen(f.id, !isOpen(f.id))}
              items={favoritesIn(list, f.id)}
            />
          ) : (
            <FavoriteRow key={f.id} slug={slug} favorite={f} />
          ),
        )}
        <RootEnd active={Boolean(dragging?.parent)} />
        <DragOverlay dropAnimation={null}>
          {dragging ? (
            <div className="favorite-drag-overlay">
              <FavoriteIcon favorite={dragging} slug={slug} />
              <span className="sidebar-label">{favoriteName(dragging)}</span>
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
    </div>
  );
}

function favoriteName(f: Favorite): string {
  return (f.is_folder ? f.name : f.entity_data?.name) || "Untitled";
}

function FavoriteIcon({ favorite: f, slug, open }: { favorite: Favorite; slug: string; open?: boolean }) {
  const live = useSnapshot(projects).bySlug[slug]?.find((p) => p.id === f.entity_identifier);
  switch (f.entity_type) {
    case "folder":
      return open ? <FolderOpen size={16} /> : <Folder size={16} />;
    case "project":
      return (
        <ProjectLogo
          name={live?.name ?? favoriteName(f)}
          logo={live?.logo_props ?? f.entity_data?.logo_props ?? {}}
          size={18}
        />
      );
    case "cycle":
      return <Contrast size={16} />;
    case "module":
      return <Package size={16} />;
    case "view":
      return <Layers size={16} />;
    default:
      return <FileText size={16} />;
  }
}

/** A favorite as a link (no dragging), for the collapsed sidebar. */
function FavoriteLink({ slug, favorite }: { slug: string; favorite: Favorite }) {
  const href = favoriteHref(slug, favorite);
  if (!href) return null;
  const name = favoriteName(favorite);
  return (
    <NavLink to={href} className={({ isActive }) => clsx("sidebar-row", isActive && "active")} title={name}>
      <span className="sidebar-row-icon">
        <FavoriteIcon favorite={favorite} slug={slug} />
      </span>
      <span className="sidebar-label">{name}</span>
    </NavLink>
  );
}

/** Draggable, and a drop target that puts what is dropped just before it (or in it, for a folder). */
function useFavoriteDnd(f: Favorite) {
  const drag = useDraggable({ id: f.id, disabled: f.id.startsWith("pending-") });
  const drop = useDroppable({ id: f.id, disabled: f.id.startsWith("pending-") });
  const ref = (node: HTMLElement | null) => {
    drag.setNodeRef(node);
    drop.setNodeRef(node);
  };
  return { ref, drag, isOver: drop.isOver && !drag.isDragging };
}

function FavoriteRow({ slug, favorite: f, nested }: { slug: string; favorite: Favorite; nested?: boolean }) {
  const { t } = useTranslation();
  const { ref, drag, isOver } = useFavoriteDnd(f);
  const href = favoriteHref(slug, f);
  const name = favoriteName(f);
  return (
    <div
      ref={ref}
      className={clsx("sidebar-item-wrap favorite-row", nested && "favorite-nested", isOver && "favorite-drop-before")}
      data-dragging={drag.isDragging || undefined}
      data-testid="favorite-row"
      data-favorite-name={name}
      data-pending={f.id.startsWith("pending-") || undefined}
    >
      {href ? (
        <NavLink
          to={href}
          className={({ isActive }) => clsx("sidebar-row", isActive && "active")}
          title={name}
          {...drag.attributes}
          {...drag.listeners}
        >
          <span className="sidebar-row-icon">
            <FavoriteIcon favorite={f} slug={slug} />
          </span>
          <span className="sidebar-label">{name}</span>
        </NavLink>
      ) : null}
      <button
        type="button"
        className="sidebar-hover-btn"
        aria-label={t("workspace.sidebar.unfavorite", { name })}
        title={t("workspace.sidebar.unfavoriteShort")}
        onClick={() => void removeFavorite(slug, f.id)}
      >
        <StarOff size={14} />
      </button>
    </div>
  );
}

function FolderRow({
  slug,
  folder,
  open,
  onToggle,
  items,
}: {
  slug: string;
  folder: Favorite;
  open: boolean;
  onToggle: () => void;
  items: Favorite[];
}) {
  const { t } = useTranslation();
  const { ref, drag, isOver } = useFavoriteDnd(folder);
  const [renaming, setRenaming] = useState(false);
  const name = favoriteName(folder);
  return (
    <div
      className="favorite-folder"
      data-testid="favorite-folder"
      data-favorite-name={name}
      data-pending={folder.id.startsWith("pending-") || undefined}
    >
      <div
        ref={ref}
        className={clsx("sidebar-item-wrap favorite-row favorite-folder-row", isOver && "favorite-drop-into")}
        data-dragging={drag.isDragging || undefined}
      >
        {renaming ? (
          <FolderNameInput
            initial={name}
            label={t("favorites.folderName")}
            onDone={(next) => {
              setRenaming(false);
              if (next && next !== name) void renameFolder(slug, folder.id, next);
            }}
          />
        ) : (
          <>
            <button
              type="button"
              className="sidebar-row favorite-folder-toggle"
              aria-expanded={open}
              onClick={onToggle}
              title={name}
              {...drag.attributes}
              {...drag.listeners}
            >
              <span className="sidebar-row-icon">
                <FavoriteIcon favorite={folder} slug={slug} open={open} />
              </span>
              <span className="sidebar-label">{name}</span>
              {open ? (
                <ChevronDown size={12} className="favorite-folder-chevron" />
              ) : (
                <ChevronRight size={12} className="favorite-folder-chevron" />
              )}
            </button>
            <span className="favorite-folder-actions">
              <button
                type="button"
                className="sidebar-hover-btn"
                aria-label={t("favorites.rename", { name })}
                title={t("favorites.renameShort")}
                onClick={() => setRenaming(true)}
              >
                <Pencil size={13} />
              </button>
              <button
                type="button"
                className="sidebar-hover-btn"
                aria-label={t("favorites.removeFolder", { name })}
                title={t("favorites.removeFolderShort")}
                onClick={() => void removeFavorite(slug, folder.id)}
              >
                <Trash2 size={13} />
              </button>
            </span>
          </>
        )}
      </div>
      {open ? (
        <div className="favorite-folder-items">
          {items.length === 0 ? <p className="favorite-folder-empty">{t("favorites.emptyFolder")}</p> : null}
          {items.map((f) => (
            <FavoriteRow key={f.id} slug={slug} favorite={f} nested />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The space under the list: dropping there brings a favorite out of its folder, to the end. */
function RootEnd({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: ROOT_END });
  return (
    <div
      ref={setNodeRef}
      className={clsx("favorite-root-end", active && "favorite-root-end-active", isOver && "favorite-drop-before")}
      data-testid="favorites-root-end"
    >
      {active ? t("favorites.dropToTop") : null}
    </div>
  );
}

function FolderNameInput({
  initial,
  label,
  onDone,
}: {
  initial: string;
  label: string;
  onDone: (name: string | null) => void;
}) {
  const [value, setValue] = useState(initial);
  // Enter removes the field, which may blur it too: answer once.
  const finished = useRef(false);
  const finish = (name: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(name);
  };
  return (
    <input
      className="favorite-folder-input"
      aria-label={label}
      placeholder={label}
      // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to name the folder
      autoFocus
      maxLength={255}
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") finish(value.trim() || null);
        if (e.key === "Escape") finish(null);
      }}
      onBlur={() => finish(value.trim() || null)}
    />
  );
}
