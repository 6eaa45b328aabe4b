/**
 * Issues / Points: which measure a burndown draws. Shown by the cycle and module burndowns only
 * when the project's active estimate counts points (the caller decides).
 */
import { useTranslation } from "react-i18next";
import { TabList } from "../progress/tab-list";

export type BurndownUnit = "issues" | "points";

export function BurndownUnitToggle({
  value,
  onChange,
}: {
  value: BurndownUnit;
  onChange: (unit: BurndownUnit) => void;
}) {
  const { t } = useTranslation();
  return (
    <TabList
      className="pg-mini-tabs"
      label={t("charts.burndown.unit")}
      value={value}
      onChange={onChange}
      items={[
        { key: "issues", label: t("charts.burndown.issues") },
        { key: "points", label: t("charts.burndown.points") },
      ]}
    />
  );
}
