/**
 * The local database flag (calls-errors-sync §9: on by default). Off, the stores work from the
 * server alone, as before the local database existed. Kept per browser in localStorage.
 */
import { readLocal, writeLocal } from "../local-storage";

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
}
