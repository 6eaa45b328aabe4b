import { PROJECT_IDENTIFIER_MAX } from "../constants/project.ts";

/**
 * Keep only letters (Latin plus the Turkish ones the product supports) and digits, uppercased.
 * Spaces, punctuation and emoji are dropped (product-domain §5).
 */
export function sanitizeIdentifier(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9ÇĞİÖŞÜçğıöşü]/g, "")
    .toUpperCase()
    .slice(0, PROJECT_IDENTIFIER_MAX);
}

/** Suggest an identifier from a project name: initials of words, or the first letters. */
export function identifierFromName(name: string): string {
  const words = name
    .split(/\s+/)
    .map((w) => sanitizeIdentifier(w))
    .filter(Boolean);
  if (words.length === 0) return "";
  if (words.length === 1) return (words[0] ?? "").slice(0, 5);
  return words
    .map((w) => w[0])
    .join("")
    .slice(0, 5);
}
