import { checkProjectIdentifier } from "@tideline/shared";
import { useEffect, useState } from "react";
import { isIdentifierAvailable } from "../../../stores/projects";

export type IdentifierStatus =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "available" }
  | { kind: "taken" }
  | { kind: "invalid"; message: string };

/**
 * Live availability of a project identifier, checked 300 ms after typing stops. `unchanged`
 * is the project's own identifier (settings page): it is always fine to keep it.
 */
export function useIdentifierCheck(slug: string, identifier: string, unchanged?: string): IdentifierStatus {
  const [status, setStatus] = useState<IdentifierStatus>({ kind: "idle" });
  useEffect(() => {
    if (!identifier) {
      setStatus({ kind: "idle" });
      return;
    }
    const check = checkProjectIdentifier(identifier);
    if (!check.ok) {
      setStatus({ kind: "invalid", message: check.message });
      return;
    }
    if (unchanged !== undefined && check.identifier === unchanged) {
      setStatus({ kind: "idle" });
      return;
    }
    let alive = true;
    setStatus({ kind: "checking" });
    const timer = window.setTimeout(() => {
      isIdentifierAvailable(slug, check.identifier)
        .then((free) => alive && setStatus({ kind: free ? "available" : "taken" }))
        .catch(() => alive && setStatus({ kind: "idle" }));
    }, 300);
    return () => {
      alive = false;
      window.clearTimeout(timer);
    };
  }, [slug, identifier, unchanged]);
  return status;
}
