/**
 * Whether the browser has a network connection (navigator.onLine and its online/offline
 * events): the offline banner follows it, appearing the moment the network goes and leaving when
 * it is back.
 */
import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

const online = () => navigator.onLine !== false;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, online, () => true);
}
