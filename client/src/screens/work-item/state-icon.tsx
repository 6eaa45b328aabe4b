import type { PRIORITIES } from "@tideline/shared";
import { AlertOctagon, Ban, SignalHigh, SignalLow, SignalMedium } from "lucide-react";

/**
 * A state's mark: a ring for backlog/unstarted, a half-filled ring for started, a filled disc
 * for completed, a crossed disc for cancelled, in the state's own colour (user data).
 */
export function StateIcon({ group, color, size = 14 }: { group: string | null; color?: string | null; size?: number }) {
  const stroke = color || "currentColor";
  const r = size / 2 - 1.5;
  const c = size / 2;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden className="wid-state-icon">
      <circle
        cx={c}
        cy={c}
        r={r}
        fill={group === "completed" || group === "cancelled" ? stroke : "none"}
        stroke={stroke}
        strokeWidth={1.5}
        strokeDasharray={group === "backlog" ? "2 2" : undefined}
      />
      {group === "started" ? (
        <path d={`M ${c} ${c - r + 2} A ${r - 2} ${r - 2} 0 0 1 ${c} ${c + r - 2} Z`} fill={stroke} />
      ) : null}
    </svg>
  );
}

type Priority = (typeof PRIORITIES)[number];

/** Priority bars (urgent: an alert mark). */
export function PriorityIcon({ priority, size = 14 }: { priority: Priority | string; size?: number }) {
  const cls = `wid-priority-icon wid-priority-${priority}`;
  if (priority === "urgent") return <AlertOctagon size={size} className={cls} aria-hidden />;
  if (priority === "high") return <SignalHigh size={size} className={cls} aria-hidden />;
  if (priority === "medium") return <SignalMedium size={size} className={cls} aria-hidden />;
  if (priority === "low") return <SignalLow size={size} className={cls} aria-hidden />;
  return <Ban size={size} className={cls} aria-hidden />;
}
