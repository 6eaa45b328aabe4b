/**
 * The page title saves itself 2 seconds after the last change (product-domain §4), through the
 * states the spec names: "saved" (nothing waiting), "submitting" (a change waits or is being
 * sent) and "submitted" (the server took it; shown briefly, then back to "saved"). When the
 * server refuses, the old name returns — unless the person has typed again meanwhile, in which
 * case their newer text is what gets saved next.
 *
 * Plain TypeScript with injected timers, so the state machine is tested without React.
 */

export type TitleSaveState = "saved" | "submitting" | "submitted";

export const TITLE_SAVE_DELAY_MS = 2000;
/** How long "submitted" shows before the indicator goes quiet. */
export const TITLE_SUBMITTED_MS = 1500;

export type TitleSaverOptions = {
  /** The name as the server has it now. */
  initial: string;
  /** Send the name; resolves true when the server took it. */
  save: (name: string) => Promise<boolean>;
  onState: (state: TitleSaveState) => void;
  /** The save failed and nothing newer is waiting: show this (the last saved) name again. */
  onRevert: (name: string) => void;
  delayMs?: number;
  submittedMs?: number;
  /** Normalise before comparing and sending (the server trims). */
  normalise?: (name: string) => string;
};

export type TitleSaver = {
  /** The person changed the title. */
  change: (name: string) => void;
  /** Save a waiting change now (blur, Enter, leaving the page). */
  flush: () => Promise<void>;
  /** The server's name changed elsewhere (another tab, another person): adopt it if idle. */
  sync: (name: string) => boolean;
  /** Is a change waiting or being sent? */
  busy: () => boolean;
  /** Stop the timers; a waiting change is saved first. */
  dispose: () => Promise<void>;
};

export function createTitleSaver(options: TitleSaverOptions): TitleSaver {
  const delay = options.delayMs ?? TITLE_SAVE_DELAY_MS;
  const submittedFor = options.submittedMs ?? TITLE_SUBMITTED_MS;
  const normalise = options.normalise ?? ((name: string) => name.trim());
  let saved = normalise(options.initial);
  let pending: string | null = null;
  let inFlight = false;
  let state: TitleSaveState = "saved";
  let timer: ReturnType<typeof setTimeout> | null = null;
  let settle: ReturnType<typeof setTimeout> | null = null;
  let disposed = false;

  const setState = (next: TitleSaveState) => {
    if (next === state) return;
    state = next;
    if (!disposed) options.onState(next);
  };
  const clear = (handle: ReturnType<typeof setTimeout> | null) => {
    if (handle) clearTimeout(handle);
  };

  async function flush(): Promise<void> {
    clear(timer);
    timer = null;
    if (pending === null || inFlight) return;
    const name = normalise(pending);
    pending = null;
    if (name === saved) {
      setState("saved");
      return;
    }
    inFlight = true;
    let ok = false;
    try {
      ok = await options.save(name);
    } catch {
      ok = false;
    }
    inFlight = false;
    if (ok) saved = name;
    if (pending !== null) {
      // Typed again while the request ran: that change is saved on its own schedule (or now,
      // if its timer already fired while we were busy).
      if (timer === null) await flush();
      return;
    }
    if (!ok) {
      if (!disposed) options.onRevert(saved);
      setState("saved");
      return;
    }
    setState("submitted");
    clear(settle);
    settle = setTimeout(() => {
      settle = null;
      if (state === "submitted") setState("saved");
    }, submittedFor);
  }

  return {
    change(name) {
      pending = name;
      clear(settle);
      settle = null;
      setState("submitting");
      clear(timer);
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, delay);
    },
    flush,
    sync(name) {
      if (pending !== null || inFlight) return false;
      saved = normalise(name);
      return true;
    },
    busy: () => pending !== null || inFlight,
    async dispose() {
      // Nobody is listening any more: the save still runs, quietly.
      disposed = true;
      clear(settle);
      settle = null;
      await flush();
    },
  };
}
