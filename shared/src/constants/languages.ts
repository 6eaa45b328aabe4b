/**
 * Interface languages a user may pick in their profile. The codes are the ones the client's
 * translation files use (note "ua" for Ukrainian and region-tagged codes where the client
 * ships regional variants). The server validates profile.language against this list.
 */
export const LANGUAGES = [
  "en",
  "fr",
  "es",
  "de",
  "it",
  "pt-BR",
  "ja",
  "ko",
  "zh-CN",
  "zh-TW",
  "ru",
  "pl",
  "cs",
  "sk",
  "tr-TR",
  "id",
  "ua",
  "vi-VN",
] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}
