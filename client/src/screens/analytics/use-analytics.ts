/**
 * Read one analytics answer for a screen: ask on mount and whenever the request changes, again
 * when the tab comes back into view (numbers move while you are elsewhere), and hand back what
 * the store holds for exactly that request.
 */
import { useEffect, useMemo } from "react";
import { useSnapshot } from "valtio";
import { type AnalyticsTarget, analytics, analyticsKey, loadAnalytics } from "../../stores/analytics";

type Endpoint = "advance-analytics" | "advance-analytics-stats" | "advance-analytics-charts";

export function useAnalytics<T>(
  target: AnalyticsTarget,
  endpoint: Endpoint,
  extra: Record<string, string | undefined>,
): { data: T | null; status: "loading" | "ready" | "error" } {
  const key = analyticsKey(target, endpoint, extra);
  // The request is the key: rebuild the arguments only when it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for target, endpoint and extra
  const args = useMemo(() => ({ target, endpoint, extra }), [key]);
  useEffect(() => {
    void loadAnalytics(args.target, args.endpoint, args.extra);
    const again = () => {
      if (document.visibilityState === "visible") void loadAnalytics(args.target, args.endpoint, args.extra);
    };
    document.addEventListener("visibilitychange", again);
    return () => document.removeEventListener("visibilitychange", again);
  }, [args]);
  const snap = useSnapshot(analytics);
  const entry = snap.answers[key];
  return { data: (entry?.data as T | undefined) ?? null, status: entry?.status ?? "loading" };
}
