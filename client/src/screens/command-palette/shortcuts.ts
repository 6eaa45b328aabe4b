/**
 * Every keyboard shortcut of the app, in one list: the shortcut help (`?`) shows it, grouped,
 * and each entry names where it works. Add a shortcut here when you add its handler; the e2e of
 * the palette walks this list's global entries.
 *
 * Keys are written as the help shows them; "Mod" reads ⌘ on a Mac and Ctrl elsewhere.
 */
export type Shortcut = {
  /** Keys pressed together; a list of several means "either". */
  keys: readonly (readonly string[])[];
  /** i18n key of what it does. */
  does: string;
  /** i18n key of where it works (none: everywhere in a workspace). */
  where?: string;
};

export type ShortcutGroup = { title: string; shortcuts: readonly Shortcut[] };

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: "shortcuts.groups.general",
    shortcuts: [
      { keys: [["Mod", "K"]], does: "shortcuts.palette" },
      { keys: [["?"]], does: "shortcuts.help" },
      { keys: [["Mod", "B"]], does: "shortcuts.sidebar", where: "shortcuts.where.wide" },
      { keys: [["Esc"]], does: "shortcuts.close" },
    ],
  },
  {
    title: "shortcuts.groups.create",
    shortcuts: [
      { keys: [["C"]], does: "shortcuts.newWorkItem", where: "shortcuts.where.boards" },
      { keys: [["Q"]], does: "shortcuts.newCycle", where: "shortcuts.where.cycles" },
      { keys: [["C"]], does: "shortcuts.newModule", where: "shortcuts.where.modules" },
      { keys: [["C"]], does: "shortcuts.newView", where: "shortcuts.where.views" },
      { keys: [["C"]], does: "shortcuts.newPage", where: "shortcuts.where.pages" },
      { keys: [["C"]], does: "shortcuts.newRequest", where: "shortcuts.where.intake" },
      { keys: [["C"]], does: "shortcuts.newProject", where: "shortcuts.where.projects" },
    ],
  },
  {
    title: "shortcuts.groups.workItems",
    shortcuts: [
      { keys: [["Esc"]], does: "shortcuts.clearSelection", where: "shortcuts.where.boards" },
      { keys: [["Enter"]], does: "shortcuts.openCard", where: "shortcuts.where.kanban" },
      { keys: [["↑"], ["↓"], ["←"], ["→"]], does: "shortcuts.moveCell", where: "shortcuts.where.spreadsheet" },
      { keys: [["PgUp"], ["PgDn"]], does: "shortcuts.movePage", where: "shortcuts.where.spreadsheet" },
      { keys: [["Home"], ["End"]], does: "shortcuts.moveRowEnds", where: "shortcuts.where.spreadsheet" },
      {
        keys: [
          ["Ctrl", "Home"],
          ["Ctrl", "End"],
        ],
        does: "shortcuts.moveTableEnds",
        where: "shortcuts.where.spreadsheet",
      },
      { keys: [["Enter"], ["F2"]], does: "shortcuts.editCell", where: "shortcuts.where.spreadsheet" },
      { keys: [["Space"]], does: "shortcuts.select", where: "shortcuts.where.spreadsheet" },
      { keys: [["Shift", "Space"]], does: "shortcuts.selectRange", where: "shortcuts.where.spreadsheet" },
      { keys: [["↑"], ["↓"]], does: "shortcuts.moveRequest", where: "shortcuts.where.intake" },
    ],
  },
  {
    title: "shortcuts.groups.editor",
    shortcuts: [
      { keys: [["/"]], does: "shortcuts.slash" },
      { keys: [["@"]], does: "shortcuts.mention" },
      { keys: [["Mod", "B"]], does: "shortcuts.bold" },
      { keys: [["Mod", "I"]], does: "shortcuts.italic" },
      { keys: [["Mod", "U"]], does: "shortcuts.underline" },
      { keys: [["Mod", "Shift", "S"]], does: "shortcuts.strike" },
      { keys: [["Mod", "E"]], does: "shortcuts.code" },
      { keys: [["Mod", "Z"]], does: "shortcuts.undo" },
      { keys: [["Mod", "Shift", "Z"]], does: "shortcuts.redo" },
    ],
  },
  {
    title: "shortcuts.groups.palette",
    shortcuts: [
      { keys: [["↑"], ["↓"]], does: "shortcuts.paletteMove" },
      { keys: [["Enter"]], does: "shortcuts.paletteRun" },
      { keys: [["Backspace"]], does: "shortcuts.paletteBack" },
    ],
  },
];

/** Is this a Mac-like platform, where "Mod" is ⌘? */
export function isMac(): boolean {
  const platform =
    (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad|ipod/i.test(platform ?? "");
}

/** A key as the help and the palette's hints print it. */
export function keyLabel(key: string, mac = isMac()): string {
  if (key === "Mod") return mac ? "⌘" : "Ctrl";
  if (key === "Shift" && mac) return "⇧";
  return key;
}

/**
 * Does this keydown belong to a field or an open layer (so a one-key shortcut must leave it)?
 * The same rule the list screens' "c" follows (screens/workspace/components/create-shortcut.ts).
 */
export function keyBelongsElsewhere(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return true;
  return Boolean(document.querySelector("[role=dialog], [data-radix-popper-content-wrapper]"));
}
