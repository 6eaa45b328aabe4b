/**
 * The peek overview: a panel at the right of the board (opened with ?peekId=), showing the same
 * detail as the full page in one column. Escape closes it (unless a menu or dialog inside is
 * open, which Escape closes first); a button opens the full page.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../components/ui";
import { loadWorkItemDetail } from "../../stores/work-item-detail";
import { getWorkItem, useWorkItem } from "../../stores/work-items";
import { useProject } from "./use-detail";
import { WorkItemDetail } from "./work-item-detail";

type Props = { workspaceSlug: string; projectId: string; workItemId: string; onClose: () => void };

/** Is a menu, popover or dialog open above the peek? Escape belongs to it then. */
function layerOpen(): boolean {
  return Boolean(document.querySelector("[data-radix-popper-content-wrapper], .dialog-content"));
}

export function WorkItemPeek({ workspaceSlug, projectId, workItemId, onClose }: Props) {
  const { t } = useTranslation();
  const item = useWorkItem(workItemId);
  const project = useProject(workspaceSlug, projectId);
  const [status, setStatus] = useState<"loading" | "ready" | "missing" | "error">("loading");
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  // Load per item: the identifier only names the key and doesn't warrant a reload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: load per item
  useEffect(() => {
    let alive = true;
    setStatus("loading");
    loadWorkItemDetail(workspaceSlug, projectId, workItemId, {
      identifier: project?.identifier,
      archived: Boolean(getWorkItem(workItemId)?.archived_at),
    })
      .then((result) => alive && setStatus(result.status))
      .catch(() => alive && setStatus("error"));
    return () => {
      alive = false;
    };
  }, [workspaceSlug, projectId, workItemId]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || layerOpen()) return;
      closeRef.current();
    };
    // Bubble phase: Radix layers and fields that handle Escape themselves go first.
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Focus the panel when it opens, so Escape and Tab work from the start.
  useEffect(() => {
    panelRef.current?.focus();
    performance.mark("tideline:peek:open"); // the benchmarks' first interaction
  }, []);

  return (
    <div
      ref={panelRef}
      className="wid-peek"
      role="dialog"
      aria-modal="false"
      aria-label={item ? `${project?.identifier ?? ""}-${item.sequence_id} ${item.name}` : t("workItem.loading")}
      tabIndex={-1}
    >
      {status === "ready" || (item && status === "loading") ? (
        <WorkItemDetail
          slug={workspaceSlug}
          projectId={projectId}
          workItemId={workItemId}
          mode="peek"
          onClose={onClose}
        />
      ) : status === "loading" ? (
        <div className="full-center">
          <Spinner />
        </div>
      ) : (
        <div className="full-center">
          <div className="stack" style={{ alignItems: "center", padding: 24, textAlign: "center" }}>
            <h3>{status === "missing" ? t("workItem.notFound.title") : t("workItem.loadFailed")}</h3>
            {status === "missing" ? <p className="muted">{t("workItem.notFound.description")}</p> : null}
            <Button variant="secondary" onClick={onClose}>
              {t("workItem.header.close")}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
