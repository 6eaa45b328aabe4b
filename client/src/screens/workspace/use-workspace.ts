import { createContext, useContext } from "react";
import { useParams } from "react-router";
import { useSnapshot } from "valtio";
import { workspaces } from "../../stores/workspaces";

/** The workspace of the current route, with the caller's role there (null while loading). */
export function useCurrentWorkspace() {
  const { workspaceSlug = "" } = useParams();
  const snap = useSnapshot(workspaces);
  const workspace = snap.bySlug[workspaceSlug];
  return { slug: workspaceSlug, workspace, role: workspace?.role ?? null };
}

/** Shell-wide actions that any screen may trigger (the modals live in the shell). */
export type ShellActions = {
  openCreateProject: () => void;
  /** The stickies list modal (the sidebar's Stickies row, the home's "All stickies"). */
  openStickies: () => void;
  /** The command palette (Mod+K; the sidebar's Search). */
  openPalette: () => void;
  /** On a phone-sized screen: open the sidebar drawer (null on wider screens, where it is always shown). */
  openNav: ((opener?: HTMLElement | null) => void) | null;
};

export const ShellContext = createContext<ShellActions>({
  openCreateProject: () => undefined,
  openStickies: () => undefined,
  openPalette: () => undefined,
  openNav: null,
});

export function useShell(): ShellActions {
  return useContext(ShellContext);
}
