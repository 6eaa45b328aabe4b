import { Plus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button } from "../../components/ui";
import { addSticky, type Sticky, stickies } from "../../stores/stickies";
import { StickyCard } from "./sticky-card";
import "./stickies.css";

/**
 * "Add sticky": turns the add-new flag on and creates (stores/stickies.ts); busy while the sticky
 * is being created. `onCreated` gets the new sticky's id, for the screen to focus its card.
 */
export function AddStickyButton({
  slug,
  onCreated,
  variant = "secondary",
}: {
  slug: string;
  onCreated: (id: string) => void;
  variant?: "primary" | "secondary";
}) {
  const { t } = useTranslation();
  const creating = useSnapshot(stickies).bySlug[slug]?.creating ?? false;
  return (
    <Button
      variant={variant}
      size="sm"
      loading={creating}
      onClick={() => {
        void addSticky(slug).then((created) => {
          if (created) onCreated(created.id);
        });
      }}
    >
      {creating ? null : <Plus size={14} aria-hidden />}
      {creating ? t("stickies.creating") : t("stickies.add")}
    </Button>
  );
}

/** Stickies in a grid (one column on phones); the card of `focusId` takes the focus when it mounts. */
export function StickyGrid({
  slug,
  items,
  focusId,
  label,
}: {
  slug: string;
  items: readonly Sticky[];
  focusId: string | null;
  label: string;
}) {
  return (
    <ul className="sticky-grid" aria-label={label}>
      {items.map((s) => (
        <li key={s.id}>
          <StickyCard slug={slug} sticky={s as Sticky} autoFocus={s.id === focusId} />
        </li>
      ))}
    </ul>
  );
}

/** Placeholders while the first page loads. */
export function StickyGridSkeleton({ count }: { count: number }) {
  return (
    <div className="sticky-grid" aria-hidden>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders
        <div key={i} className="sticky-card sticky-card-skeleton" />
      ))}
    </div>
  );
}
