/**
 * i18n with i18next. English is bundled; other languages load lazily per language, one file
 * each in ./locales. The choice is kept in localStorage "userLanguage" and in the user's profile.
 */
import { LANGUAGES } from "@tideline/shared";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";

export const LANGUAGE_STORAGE_KEY = "userLanguage";

type Bundle = { default: Record<string, unknown> };

/** Languages with a translation file in ./locales besides English (others fall back to English). */
const loaders: Record<string, () => Promise<Bundle>> = Object.fromEntries(
  Object.entries(import.meta.glob<Bundle>(["./locales/*.json", "!./locales/en.json"])).map(([path, load]) => [
    path.slice("./locales/".length, -".json".length),
    load,
  ]),
);

/**
 * The languages the profile's picker offers: those with a translation. The server accepts every
 * code of the reference's list (LANGUAGES); offering one without a file would show English under
 * another name.
 */
export const TRANSLATED_LANGUAGES: readonly string[] = LANGUAGES.filter((code) => code === "en" || code in loaders);

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
