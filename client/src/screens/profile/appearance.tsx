import { Contrast, Monitor, Moon, Paintbrush, Sun, SunMoon } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button } from "../../components/ui";
import { TRANSLATED_LANGUAGES } from "../../i18n";
import { saveLanguage, saveTheme } from "../../stores/profile";
import { session } from "../../stores/session";
import { type CustomPalette, THEMES, type ThemeName, theme } from "../../stores/theme";
import { SelectField } from "../workspace/components/select-field";
import { Toggle } from "../workspace/components/toggle";

const ICONS: Record<ThemeName, typeof Sun> = {
  system: Monitor,
  light: Sun,
  dark: Moon,
  "light-contrast": Contrast,
  "dark-contrast": SunMoon,
  custom: Paintbrush,
};

const DEFAULT_CUSTOM: CustomPalette = {
  background: "#fdfcf8",
  text: "#1f2328",
  primary: "#7c5cff",
  sidebarBackground: "#f3f0ea",
  sidebarText: "#3b3a36",
  darkPalette: false,
};

/** The language's own name ("Français"); "ua" is the product's code for Ukrainian (BCP 47 "uk"). */
function languageName(code: string): string {
  const tag = code === "ua" ? "uk" : code;
  try {
    const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag);
    return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : code;
  } catch {
    return code;
  }
}

/** /profile/appearance/: the six themes (custom with its colours) and the interface language. */
export function ProfileAppearance() {
  const { t } = useTranslation();
  const themeSnap = useSnapshot(theme);
  const profile = useSnapshot(session).profile;
  const [custom, setCustom] = useState<CustomPalette>(() => ({ ...DEFAULT_CUSTOM, ...(theme.custom ?? {}) }));
  const [savingCustom, setSavingCustom] = useState(false);

  useEffect(() => {
    document.title = `${t("profile.appearance.title")} · Tideline`;
  }, [t]);

  // A language picked before it had a translation shows English: that is what the person reads.
  const picked = profile?.language ?? "en";
  const language = TRANSLATED_LANGUAGES.includes(picked) ? picked : "en";

  async function applyCustom(event: FormEvent) {
    event.preventDefault();
    setSavingCustom(true);
    if (await saveTheme("custom", custom)) toast.success(t("profile.appearance.customSaved"));
    setSavingCustom(false);
  }

  const colorFields: { key: Exclude<keyof CustomPalette, "darkPalette">; label: string }[] = [
    { key: "background", label: t("profile.appearance.colors.background") },
    { key: "text", label: t("profile.appearance.colors.text") },
    { key: "primary", label: t("profile.appearance.colors.primary") },
    { key: "sidebarBackground", label: t("profile.appearance.colors.sidebarBackground") },
    { key: "sidebarText", label: t("profile.appearance.colors.sidebarText") },
  ];

  return (
    <>
      <div className="settings-heading">
        <div>
          <h1>{t("profile.appearance.title")}</h1>
          <p className="muted">{t("profile.appearance.hint")}</p>
        </div>
      </div>

      <section className="settings-section" aria-labelledby="theme-title">
        <h2 id="theme-title" className="section-title">
          {t("profile.appearance.theme")}
        </h2>
        <div className="theme-grid" role="radiogroup" aria-labelledby="theme-title">
          {THEMES.map((name) => {
            const Icon = ICONS[name];
            return (
              <label key={name} className="theme-card">
                <input
                  type="radio"
                  name="theme"
                  value={name}
                  checked={themeSnap.name === name}
                  onChange={() => void saveTheme(name, name === "custom" ? custom : undefined)}
                />
                <ThemePreview name={name} custom={custom} />
                <span className="theme-card-label">
                  <Icon size={14} aria-hidden />
                  {t(`profile.appearance.themes.${name}`)}
                </span>
              </label>
            );
          })}
        </div>
      </section>

      {themeSnap.name === "custom" ? (
        <form className="settings-section" onSubmit={applyCustom} aria-labelledby="custom-title">
          <h2 id="custom-title" className="section-title">
            {t("profile.appearance.customTitle")}
          </h2>
          <div className="custom-palette">
            {colorFields.map(({ key, label }) => (
              <div key={key} className="field">
                <label className="field-label" htmlFor={`color-${key}`}>
                  {label}
                </label>
                <div className="color-field">
                  <input
                    type="color"
                    aria-label={t("profile.appearance.pick", { name: label })}
                    value={custom[key]}
                    onChange={(e) => setCustom((c) => ({ ...c, [key]: e.target.value }))}
                  />
                  <input
                    id={`color-${key}`}
                    className="input"
                    value={custom[key]}
                    maxLength={7}
                    pattern="#[0-9a-fA-F]{6}"
                    onChange={(e) => setCustom((c) => ({ ...c, [key]: e.target.value }))}
                  />
                </div>
              </div>
            ))}
            <div className="field">
              <span className="field-label">{t("profile.appearance.darkPalette")}</span>
              <div className="color-field" style={{ height: 36 }}>
                <Toggle
                  label={t("profile.appearance.darkPalette")}
                  checked={custom.darkPalette}
                  onCheckedChange={(darkPalette) => setCustom((c) => ({ ...c, darkPalette }))}
                />
                <span className="muted">{t("profile.appearance.darkPaletteHint")}</span>
              </div>
            </div>
          </div>
          <div className="settings-actions">
            <Button
              type="submit"
              loading={savingCustom}
              disabled={colorFields.some(({ key }) => !/^#[0-9a-fA-F]{6}$/.test(custom[key]))}
            >
              {t("profile.appearance.applyCustom")}
            </Button>
          </div>
        </form>
      ) : null}

      <section className="settings-section" aria-labelledby="language-title">
        <h2 id="language-title" className="section-title">
          {t("profile.appearance.languageTitle")}
        </h2>
        <div className="feature-list">
          <div className="setting-row">
            <div>
              <span className="setting-row-title">{t("profile.appearance.language")}</span>
              <span className="setting-row-hint">
                {TRANSLATED_LANGUAGES.length > 1
                  ? t("profile.appearance.languageHint")
                  : t("profile.appearance.languageOnlyOne", { language: languageName(language) })}
              </span>
            </div>
            {/* Only languages with a translation are offered; with one, there is nothing to pick. */}
            {TRANSLATED_LANGUAGES.length > 1 ? (
              <SelectField
                aria-label={t("profile.appearance.language")}
                value={language}
                options={TRANSLATED_LANGUAGES.map((code) => ({ value: code, label: languageName(code) }))}
                onValueChange={(code) => void saveLanguage(code)}
              />
            ) : (
              <span className="setting-row-value" data-testid="interface-language">
                {languageName(language)}
              </span>
            )}
          </div>
        </div>
      </section>
    </>
  );
}

/**
 * A miniature of the theme. It sets data-theme on itself, so it is drawn with that theme's own
 * tokens; "system" shows light and dark side by side; "custom" uses the chosen colours.
 */
function ThemePreview({ name, custom }: { name: ThemeName; custom: CustomPalette }) {
  if (name === "system") {
    return (
      <div className="theme-preview" aria-hidden style={{ padding: 0 }}>
        <div data-theme="light" style={{ flex: 1, display: "flex" }}>
          <MiniLayout />
        </div>
        <div data-theme="dark" style={{ flex: 1, display: "flex" }}>
          <MiniLayout />
        </div>
      </div>
    );
  }
  if (name === "custom") {
    return (
      <div className="theme-preview" aria-hidden data-theme={custom.darkPalette ? "dark" : "light"}>
        <MiniLayout
          colors={{
            bg: custom.background,
            text: custom.text,
            primary: custom.primary,
            sidebar: custom.sidebarBackground,
            sidebarText: custom.sidebarText,
          }}
        />
      </div>
    );
  }
  return (
    <div className="theme-preview" aria-hidden data-theme={name}>
      <MiniLayout />
    </div>
  );
}

function MiniLayout({
  colors,
}: {
  colors?: { bg: string; text: string; primary: string; sidebar: string; sidebarText: string };
}) {
  const c = colors ?? {
    bg: "var(--color-bg)",
    text: "var(--color-text)",
    primary: "var(--color-primary)",
    sidebar: "var(--color-sidebar-bg)",
    sidebarText: "var(--color-sidebar-text)",
  };
  return (
    <div style={{ display: "flex", flex: 1, background: c.bg }}>
      <div
        className="theme-preview-side"
        style={{ background: c.sidebar, borderRight: "1px solid var(--color-border)" }}
      >
        <span className="theme-preview-line" style={{ background: c.primary, width: "70%" }} />
        <span className="theme-preview-line" style={{ background: c.sidebarText, width: "85%" }} />
        <span className="theme-preview-line" style={{ background: c.sidebarText, width: "60%" }} />
      </div>
      <div className="theme-preview-main">
        <span className="theme-preview-line" style={{ background: c.text, width: "55%" }} />
        <span className="theme-preview-line" style={{ background: c.text, width: "80%", opacity: 0.4 }} />
        <span className="theme-preview-line" style={{ background: c.text, width: "70%", opacity: 0.4 }} />
        <span className="theme-preview-line" style={{ background: c.primary, width: "30%", marginTop: "auto" }} />
      </div>
    </div>
  );
}
