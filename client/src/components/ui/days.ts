import { format } from "date-fns";

/** A day as the API stores it: "yyyy-MM-dd". */
export type Day = string;

/** "yyyy-MM-dd" (anything after the 10th character ignored) → a local Date at midnight; null when malformed or not a real day. */
export function parseDay(value: string | null | undefined): Date | null {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  // new Date rolls 2026-02-30 over into March: that is not a day.
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : null;
}

/** A Date → its local day, "yyyy-MM-dd". */
export function toDay(date: Date): Day {
  return format(date, "yyyy-MM-dd");
}

/** "Jan 05, 2026" (product-domain §9: MMM dd, yyyy); "" for no day. */
export function showDay(value: string | null | undefined): string {
  const date = parseDay(value);
  return date ? format(date, "MMM dd, yyyy") : "";
}
