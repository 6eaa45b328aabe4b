/**
 * The local database flag (calls-errors-sync §9: on by default). Off, the stores work from the
 * server alone, as before the local database existed. Kept per browser in localStorage.
 */
import { readLocal, removeLocal, writeLocal } from "../local-storage";

/** lib/prepaint.ts's key (not imported: prepaint imports this flag). */
const PREPAINT_KEY = "tideline:prepaint";

const FLAG_KEY = "tideline:local-db-enabled";
let enabled: boolean | null = null;

export function isLocalDbEnabled(): boolean {
  if (enabled === null) enabled = readLocal<boolean>(FLAG_KEY, true) !== false;
  return enabled;
}

/** Takes effect for what is loaded next; the copy already stored stays until sign-out. */
export function setLocalDbEnabled(value: boolean): void {
  enabled = value;
  writeLocal(FLAG_KEY, value);
  // The picture of the last board (lib/prepaint.ts) is part of the local copy: off, it goes.
  if (!value) removeLocal(PREPAINT_KEY);
}
