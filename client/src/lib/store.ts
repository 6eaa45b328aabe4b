/**
 * Store registry: every domain store is created with defineStore(), which remembers how to
 * reset it. Sign-out and account deactivation call resetAllStores() — one registry, no
 * hand-kept list that drifts from the real stores.
 */
import { proxy } from "valtio";

const resetters = new Set<() => void>();

export function defineStore<T extends object>(initial: () => T): T {
  const state = proxy(initial());
  resetters.add(() => {
    const fresh = initial();
    for (const key of Object.keys(state) as (keyof T)[]) {
      if (!(key in fresh)) delete state[key];
    }
    Object.assign(state, fresh);
  });
  return state;
}

/**
 * State kept outside a store that must go at sign-out too (e.g. the per-user local database,
 * which closes and deletes itself): called with the stores' resets.
 */
export function onStoresReset(reset: () => void): void {
  resetters.add(reset);
}

export function resetAllStores(): void {
  for (const reset of resetters) reset();
}
