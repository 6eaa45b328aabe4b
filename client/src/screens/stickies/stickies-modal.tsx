import { StickyNote, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button, EmptyState, Modal } from "../../components/ui";
import { useIsNarrow } from "../../lib/use-media";
import { fetchMoreStickies, fetchStickies, stickies } from "../../stores/stickies";
import { ListSearch, LoadFailedState, NoMatchState } from "../workspace/components/list-parts";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { AddStickyButton, StickyGrid, StickyGridSkeleton } from "./sticky-parts";

/** The search waits for a pause in the typing before it asks the server. */
const SEARCH_DELAY_MS = 300;

/**
 * The stickies list modal (product-domain §2 "stickies list"): every sticky of the caller in this
 * workspace, a search (read again from the server after a pause), "Load more" pages and "Add
 * sticky". Escape or the close button closes it; on phones it fills the screen. Closing it
 * drops the search, so the home shows the newest stickies again.
 */
export function StickiesModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const list = useSnapshot(stickies).bySlug[slug];
  const narrow = useIsNarrow();
  const [search, setSearch] = useState("");
  const [focusId, setFocusId] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement | null>(null);

  // Opening reads the list (fresh, unsearched).
  useEffect(() => {
    if (!open) return;
    setSearch("");
    setFocusId(null);
    void fetchStickies(slug, "").catch(() => undefined);
  }, [open, slug]);

  useEffect(() => {
    if (!open) return;
    const text = search.trim();
    if (text === (stickies.bySlug[slug]?.query ?? "")) return;
    const timer = setTimeout(() => void fetchStickies(slug, text).catch(() => undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open, search, slug]);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next && stickies.bySlug[slug]?.query) void fetchStickies(slug, "").catch(() => undefined);
  };

  const items = list?.items ?? [];
  const query = list?.query ?? "";
  const loader = list?.loader ?? "init-loader";
  const clearSearch = () => {
    setSearch("");
    searchRef.current?.focus();
  };

  let body: React.ReactNode;
  if (loader === "init-loader") body = <StickyGridSkeleton count={3} />;
  else if (list?.failed && items.length === 0)
    body = (
      <LoadFailedState
        icon={StickyNote}
        title={t("stickies.loadFailed")}
        retryLabel={t("stickies.retry")}
        onRetry={() => void fetchStickies(slug).catch(() => undefined)}
      />
    );
  else if (items.length === 0 && query)
    body = (
      <NoMatchState
        title={t("stickies.noResults.title", { query })}
        description={t("stickies.noResults.description")}
        clearLabel={t("stickies.clearSearch")}
        onClear={clearSearch}
      />
    );
  else if (items.length === 0)
    body = (
      <EmptyState
        icon={StickyNote}
        title={t("stickies.empty.title")}
        description={t("stickies.empty.description")}
        action={<AddStickyButton slug={slug} variant="primary" onCreated={setFocusId} />}
      />
    );
  else
    body = (
      <>
        <StickyGrid slug={slug} items={items} focusId={focusId} label={t("stickies.modalTitle")} />
        {list?.hasMore || loader === "pagination" ? (
          <div className="stickies-more">
            <Button
              variant="secondary"
              loading={loader === "pagination"}
              disabled={loader !== "loaded"}
              onClick={() => void fetchMoreStickies(slug).catch(() => undefined)}
            >
              {t("stickies.loadMore")}
            </Button>
          </div>
        ) : null}
      </>
    );

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={t("stickies.modalTitle")}
      description={t("stickies.modalDescription")}
      className="stickies-modal"
      onOpenAutoFocus={(event) => {
        // The search takes the focus; not on phones, where it would open the keyboard over the list.
        if (narrow) return;
        event.preventDefault();
        searchRef.current?.focus();
      }}
    >
      <button
        type="button"
        className="stickies-modal-close"
        aria-label={t("stickies.close")}
        title={t("stickies.close")}
        onClick={() => close(false)}
      >
        <X size={18} aria-hidden />
      </button>
      <div className="stickies-toolbar">
        <ListSearch
          className="stickies-search"
          placeholder={t("stickies.searchPlaceholder")}
          label={t("stickies.search")}
          value={search}
          onChange={setSearch}
          inputRef={searchRef}
        />
        <AddStickyButton slug={slug} variant="primary" onCreated={setFocusId} />
      </div>
      <p className="visually-hidden" aria-live="polite">
        {loader === "mutation" ? t("stickies.searching") : ""}
      </p>
      <div className={loader === "mutation" ? "stickies-body stickies-busy" : "stickies-body"}>{body}</div>
    </Modal>
  );
}
