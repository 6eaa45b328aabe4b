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
