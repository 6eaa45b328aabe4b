/**
 * Let the browser run what is waiting (input, a frame, other tasks) before going on: a long piece
 * of work split at these points is several short tasks instead of one long one. Uses
 * `scheduler.yield()` where the browser has it (the continuation keeps its priority), a
 * zero-delay timer elsewhere.
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Run `work` once the browser is idle (at the latest after `timeoutMs`); returns a cancel. A
 * zero-delay timer where requestIdleCallback is missing (Safari).
 */
export function whenIdle(work: () => void, timeoutMs = 2_000): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(work, 0);
  return () => clearTimeout(timer);
}
