/** Optimistic changes: the one place that applies, calls, and undoes with a toast on refusal. */
import { toast } from "sonner";
import { errorMessage } from "./api";

/**
 * Apply a change at once, then ask the server; if it refuses, undo and say why in a toast.
 * `apply` returns the undo. Resolves to the server's answer, or undefined when it failed.
 */
export async function optimistic<T>(opts: {
  apply: () => () => void;
  call: () => Promise<T>;
  error: string;
}): Promise<T | undefined> {
  const undo = opts.apply();
  try {
    return await opts.call();
  } catch (error) {
    undo();
    toast.error(opts.error, { description: await errorMessage(error) });
    return undefined;
  }
}
