import type { StateGroup } from "@tideline/shared";

/**
 * The glyph of a state group, drawn in a state's colour: a dashed ring (backlog), a ring
 * (unstarted), a half-filled ring (started), a tick (completed) or a cross (cancelled).
 */
export function StateGroupIcon({ group, color, size = 14 }: { group: StateGroup; color: string; size?: number }) {
  const common = { width: size, height: size, viewBox: "0 0 16 16", style: { flexShrink: 0 } };
  switch (group) {
    case "backlog":
      return (
        <svg {...common} aria-hidden="true">
          <circle cx="8" cy="8" r="6.25" fill="none" stroke={color} strokeWidth="1.5" strokeDasharray="2.6 1.9" />
        </svg>
      );
    case "unstarted":
      return (
        <svg {...common} aria-hidden="true">
          <circle cx="8" cy="8" r="6.25" fill="none" stroke={color} strokeWidth="1.5" />
        </svg>
      );
    case "started":
      return (
        <svg {...common} aria-hidden="true">
          <circle cx="8" cy="8" r="6.25" fill="none" stroke={color} strokeWidth="1.5" />
          <path d="M8 3.5a4.5 4.5 0 0 1 0 9z" fill={color} />
        </svg>
      );
    case "completed":
      return (
        <svg {...common} aria-hidden="true">
          <circle cx="8" cy="8" r="7" fill={color} />
          <path
            d="M5 8.2 7 10.2 11 6"
            fill="none"
            stroke="var(--color-surface)"
            strokeWidth="1.6"
            strokeLinecap="round"
          />
        </svg>
      );
    case "cancelled":
      return (
        <svg {...common} aria-hidden="true">
          <circle cx="8" cy="8" r="7" fill={color} />
          <path
            d="m5.6 5.6 4.8 4.8m0-4.8-4.8 4.8"
            fill="none"
            stroke="var(--color-surface)"
            strokeWidth="1.6"
            strokeLinecap="round"
          />
        </svg>
      );
  }
}
