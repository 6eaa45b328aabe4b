/**
 * "Create a … in this project" asked from outside the screen that owns the form (the command
 * palette): the request waits here until that screen is on and may create, which then opens its
 * own create modal — so the new thing is made where it will show, with that screen's defaults
 * (a board's cycle, a page's access), by the one form each kind has.
 *
 * A request is taken once; a newer one replaces it; one nobody takes within a minute lapses (the
 * person went elsewhere, or may not create there after all), so it cannot open a form later by
 * surprise.
 */
import { useEffect, useRef } from "react";
import { proxy, useSnapshot } from "valtio";

export type CreateKind = "workItem" | "page" | "cycle" | "module" | "view";

type Intent = { kind: CreateKind; projectId: string; at: number };

const LAPSE_MS = 60_000;

const pending = proxy<{ intent: Intent | null }>({ intent: null });

export function requestCreate(kind: CreateKind, projectId: string): void {
  pending.intent = { kind, projectId, at: Date.now() };
}

/** Take the waiting request for this kind and project, if any (null once taken or lapsed). */
function take(kind: CreateKind, projectId: string): boolean {
  const intent = pending.intent;
  if (!intent || intent.kind !== kind || intent.projectId !== projectId) return false;
  pending.intent = null;
  return Date.now() - intent.at <= LAPSE_MS;
}

/**
 * On a screen that creates `kind` in `projectId`: open its form when a request for it waits
 * (now or later), once `enabled` (the caller may create and the screen is ready).
 */
export function useCreateIntent(kind: CreateKind, projectId: string, enabled: boolean, open: () => void): void {
  const snap = useSnapshot(pending);
  const openRef = useRef(open);
  openRef.current = open;
  const waiting = snap.intent?.kind === kind && snap.intent.projectId === projectId;
  useEffect(() => {
    if (enabled && waiting && take(kind, projectId)) openRef.current();
  }, [enabled, waiting, kind, projectId]);
}
