/**
 * The description's history (the server's description versions): a "History" button under the
 * description opens a dialog listing the saved versions (when, by whom), newest first, with a
 * read-only view of the one selected. Versions are saved by the server on every REST write and
 * at most every 10 minutes while the description is edited live.
 */
import { History } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { RichTextView } from "../../components/editor";
import { Avatar, Banner, Button, Modal, ModalFooter, Spinner } from "../../components/ui";
import {
  type DescriptionVersion,
  descriptionVersions,
  loadDescriptionVersion,
  loadDescriptionVersions,
} from "../../stores/description-versions";
import { personOf } from "../pages/use-pages";
import { versionTime } from "../pages/version-history";
import { isEmptyRichText } from "./format";
import { useDetailContext, useProjectMeta } from "./use-detail";
import "./description-history.css";

export function DescriptionHistory({ itemId }: { itemId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="wid-history-btn"
        onClick={() => setOpen(true)}
        title={t("workItem.descriptionHistory.open")}
      >
        <History size={13} aria-hidden />
        {t("workItem.descriptionHistory.button")}
      </button>
      {open ? <HistoryDialog itemId={itemId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function HistoryDialog({ itemId, onClose }: { itemId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const meta = useProjectMeta(ctx.projectId);
  const snap = useSnapshot(descriptionVersions);
  const entry = snap.byItem[itemId];
  const list = (entry?.list ?? []) as DescriptionVersion[];
  const [selected, setSelected] = useState<string | null>(null);
  const chosen = selected ?? list[0]?.id ?? null;

  useEffect(() => {
    void loadDescriptionVersions(ctx.slug, ctx.projectId, itemId).catch(() => undefined);
  }, [ctx.slug, ctx.projectId, itemId]);

  const members = meta?.members ?? [];
  return (
    <Modal
      open
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      title={t("workItem.descriptionHistory.title")}
      width={820}
    >
      <div className="wid-history">
        <ul className="wid-history-list" aria-label={t("workItem.descriptionHistory.list")}>
          {list.map((version) => {
            const who = personOf(members, version.owned_by, t("workItem.descriptionHistory.someone"));
            return (
              <li key={version.id}>
                <button
                  type="button"
                  className="wid-history-entry"
                  aria-current={chosen === version.id ? "true" : undefined}
                  onClick={() => setSelected(version.id)}
                >
                  <span className="wid-history-time">{versionTime(version.last_saved_at)}</span>
                  <span className="wid-history-who">
                    <Avatar name={who.name} src={who.avatarUrl} size={16} />
                    {who.name}
                  </span>
                </button>
              </li>
            );
          })}
          {entry?.next ? (
            <li>
              <Button
                size="sm"
                variant="secondary"
                disabled={entry.status === "loading"}
                onClick={() =>
                  void loadDescriptionVersions(ctx.slug, ctx.projectId, itemId, { more: true }).catch(() => undefined)
                }
              >
                {t("workItem.descriptionHistory.more")}
              </Button>
            </li>
          ) : null}
        </ul>
        <div className="wid-history-preview">
          {entry?.status === "error" ? (
            <Banner>{t("workItem.descriptionHistory.loadFailed")}</Banner>
          ) : !entry || (entry.status === "loading" && list.length === 0) ? (
            <div className="wid-history-loading" role="status">
              <Spinner />
            </div>
          ) : list.length === 0 ? (
            <p className="subtle">{t("workItem.descriptionHistory.empty")}</p>
          ) : chosen ? (
            <VersionBody itemId={itemId} versionId={chosen} />
          ) : null}
        </div>
      </div>
      <ModalFooter>
        <Button variant="secondary" onClick={onClose}>
          {t("workItem.descriptionHistory.close")}
        </Button>
      </ModalFooter>
    </Modal>
  );
}

function VersionBody({ itemId, versionId }: { itemId: string; versionId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useSnapshot(descriptionVersions).details[versionId];
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setFailed(false);
    loadDescriptionVersion(ctx.slug, ctx.projectId, itemId, versionId).catch(() => setFailed(true));
  }, [ctx.slug, ctx.projectId, itemId, versionId]);

  if (failed) return <Banner>{t("workItem.descriptionHistory.versionFailed")}</Banner>;
  if (!detail)
    return (
      <div className="wid-history-loading" role="status">
        <Spinner />
      </div>
    );
  return isEmptyRichText(detail.description_html) ? (
    <p className="subtle">{t("workItem.descriptionHistory.emptyVersion")}</p>
  ) : (
    <RichTextView html={detail.description_html} className="wid-history-body" />
  );
}
