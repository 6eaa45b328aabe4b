/**
 * The star on a cycle's or module's row, card and panel: a toggle button (aria-pressed) named
 * after the thing it stars. It swallows the click and the pointer-down so the row's link does
 * not open and a board card does not start dragging.
 */
import clsx from "clsx";
import { Star } from "lucide-react";
import { useTranslation } from "react-i18next";
import "./progress.css";

export function FavoriteStar({
  on,
  name,
  onToggle,
  className,
}: {
  on: boolean;
  /** The cycle's or module's name, for the accessible label. */
  name: string;
  onToggle: (next: boolean) => void;
  /** The screen's icon-button class (size and hover). */
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={clsx(className, "pg-star", on && "is-on")}
      aria-pressed={on}
      aria-label={on ? t("charts.favorite.remove", { name }) : t("charts.favorite.add", { name })}
      title={on ? t("charts.favorite.removeShort") : t("charts.favorite.addShort")}
      onPointerDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onToggle(!on);
      }}
    >
      <Star size={14} aria-hidden fill={on ? "currentColor" : "none"} />
    </button>
  );
}
