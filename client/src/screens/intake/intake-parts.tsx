/** Small pieces the intake list and detail share: the status badge, the request's key, dates. */
import clsx from "clsx";
import { formatDistanceToNowStrict, parseISO } from "date-fns";
import { useTranslation } from "react-i18next";
import { effectiveStatus, INTAKE_STATUS, type IntakeRequest, type IntakeStatus } from "../../stores/intake";

export const STATUS_KEY: Record<IntakeStatus, string> = {
  [INTAKE_STATUS.pending]: "pending",
  [INTAKE_STATUS.declined]: "declined",
  [INTAKE_STATUS.snoozed]: "snoozed",
  [INTAKE_STATUS.accepted]: "accepted",
  [INTAKE_STATUS.duplicate]: "duplicate",
};

export function StatusBadge({ request }: { request: IntakeRequest }) {
  const { t } = useTranslation();
  const key = STATUS_KEY[effectiveStatus(request)];
  return (
    <span className={clsx("intake-badge", `intake-badge-${key}`)} data-testid="intake-status">
      {t(`intake.status.${key}`)}
    </span>
  );
}

export function ago(value: string): string {
  try {
    return formatDistanceToNowStrict(parseISO(value), { addSuffix: true });
  } catch {
    return value.slice(0, 10);
  }
}

/** "Jun 3, 2026, 09:00" in the reader's own time zone. */
export function showMoment(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, {
        month: "short",
        day: "numeric",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
      });
}

export function requestKey(identifier: string | undefined, r: IntakeRequest): string {
  return `${identifier ?? ""}-${r.issue.sequence_id}`;
}
