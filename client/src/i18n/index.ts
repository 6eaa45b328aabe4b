/**
 * i18n with i18next. English is bundled; other languages load lazily per language. The
 * choice is kept in localStorage "userLanguage" and in the user's profile.
 */
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";

export const LANGUAGE_STORAGE_KEY = "userLanguage";

/** Languages with a translation file in ./locales (others fall back to English). */
const loaders: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {};

function storedLanguage(): string {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY) ?? "en";
  } catch {
    return "en";
  }
}

export async function initI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: "en",
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await changeLanguage(storedLanguage());
}

export async function changeLanguage(language: string): Promise<void> {
  const load = loaders[language];
  if (load && !i18next.hasResourceBundle(language, "translation")) {
    const bundle = await load();
    i18next.addResourceBundle(language, "translation", bundle.default, true, true);
  }
  await i18next.changeLanguage(load || language === "en" ? language : "en");
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // not remembered
  }
  document.documentElement.lang = language;
}

export { i18next };
