/**
 * yyyy-MM-dd dates relative to today, for set-up through the API and for reading the screens.
 * Two calendars, because the app draws in two: the project's timezone (UTC in the e2e set-up) for
 * cycle and due dates the server judges, and the browser's local calendar for the timelines.
 */

const pad = (n: number) => String(n).padStart(2, "0");

/** `days` from today on the UTC calendar (the project's zone). */
export function utcDay(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** `days` from today on the local calendar (as the timeline draws it). */
export function localDay(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
