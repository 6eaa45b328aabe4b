/**
 * Themes: system, light, dark, light high contrast, dark high contrast, custom. Applied as
 * `data-theme` on <html> (tokens in styles/tokens.css), remembered locally for the first
 * paint and in the profile for other devices.
 */
import { readLocal, writeLocal } from "../lib/local-storage";
import { defineStore } from "../lib/store";

export const THEMES = ["system", "light", "dark", "light-contrast", "dark-contrast", "custom"] as const;
export type ThemeName = (typeof THEMES)[number];

export type CustomPalette = {
  background: string;
  text: string;
  primary: string;
  sidebarBackground: string;
  sidebarText: string;
  darkPalette: boolean;
};

const STORAGE_KEY = "tideline:theme";
const CUSTOM_KEY = "tideline:theme-custom";

export const theme = defineStore(() => ({
  name: readLocal<ThemeName>(STORAGE_KEY, "system"),
  custom: readLocal<CustomPalette | null>(CUSTOM_KEY, null),
}));

const media = typeof window !== "undefined" ? window.matchMedia("(prefers-color-scheme: dark)") : null;

/** Put the theme on the document; "system" follows the OS and updates when it changes. */
export function applyTheme(name: ThemeName = theme.name, custom: CustomPalette | null = theme.custom): void {
  const root = document.documentElement;
  const resolved = name === "system" ? (media?.matches ? "dark" : "light") : name;
  root.dataset.theme = resolved === "custom" ? (custom?.darkPalette ? "dark" : "light") : resolved;
  const vars: [string, string | undefined][] = [
    ["--color-bg", custom?.background],
    ["--color-text", custom?.text],
    ["--color-primary", custom?.primary],
    ["--color-sidebar-bg", custom?.sidebarBackground],
    ["--color-sidebar-text", custom?.sidebarText],
  ];
  for (const [prop, value] of vars) {
    if (resolved === "custom" && value) root.style.setProperty(prop, value);
    else root.style.removeProperty(prop);
  }
}

export function setTheme(name: ThemeName, custom?: CustomPalette | null): void {
  theme.name = name;
  if (custom !== undefined) theme.custom = custom;
  writeLocal(STORAGE_KEY, name);
  writeLocal(CUSTOM_KEY, theme.custom);
  applyTheme();
}

media?.addEventListener("change", () => {
  if (theme.name === "system") applyTheme();
});
