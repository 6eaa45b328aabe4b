import { StickyNote } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { fetchStickies, stickies } from "../../stores/stickies";
import { LoadFailedState } from "../workspace/components/list-parts";
import { useShell } from "../workspace/use-workspace";
import { AddStickyButton, StickyGrid, StickyGridSkeleton } from "./sticky-parts";

/** How many of the newest stickies the home shows (the rest are in the stickies modal). */
const ON_HOME = 4;

/** The home's "Your stickies": the newest few, "Add sticky" and "All stickies" (the modal). */
export function StickiesWidget({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const shell = useShell();
  const list = useSnapshot(stickies).bySlug[slug];
  const [focusId, setFocusId] = useState<string | null>(null);
  const headingId = useId();

  useEffect(() => {
    void fetchStickies(slug, "").catch(() => undefined);
  }, [slug]);

  const items = list?.items ?? [];
  const loading = !list || list.loader === "init-loader";

  return (
    <section className="stickies-widget" aria-labelledby={headingId}>
      <div className="stickies-widget-head">
        <h2 className="section-title" id={headingId}>
          {t("stickies.title")}
        </h2>
        <div className="stickies-widget-actions">
          <AddStickyButton slug={slug} onCreated={setFocusId} />
          <Button variant="ghost" size="sm" onClick={shell.openStickies}>
            {t("stickies.all")}
          </Button>
        </div>
      </div>
      {loading ? (
        <StickyGridSkeleton count={2} />
      ) : list.failed && items.length === 0 ? (
        <div className="stickies-widget-empty">
          <LoadFailedState
            icon={StickyNote}
            title={t("stickies.loadFailed")}
            retryLabel={t("stickies.retry")}
            onRetry={() => void fetchStickies(slug).catch(() => undefined)}
          />
        </div>
      ) : items.length === 0 ? (
        <div className="stickies-widget-empty">
          <EmptyState
            icon={StickyNote}
            title={t("stickies.empty.title")}
            description={t("stickies.empty.description")}
          />
        </div>
      ) : (
        <StickyGrid slug={slug} items={items.slice(0, ON_HOME)} focusId={focusId} label={t("stickies.title")} />
      )}
    </section>
  );
}
