/**
 * A page's version history: a side panel listing saved versions (who, when) and, for the one
 * selected, a read-only preview of its body (sanitised HTML from the server) with Restore for
 * those who may edit the page. Restoring replaces the body for everyone editing it (the server
 * sends the change over the live layer) after a confirmation.
 */
import { format, parseISO } from "date-fns";
import { ArrowLeft, History, RotateCcw, X } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { RichTextView } from "../../components/editor";
import { Avatar, Banner, Button, Spinner } from "../../components/ui";
import { loadVersion, loadVersions, type Page, type PageVersion, pages, restoreVersion } from "../../stores/pages";
import type { ProjectMember } from "../../stores/project-meta";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Skeleton } from "../workspace/components/skeleton";
import { personOf } from "./use-pages";
import "../../components/ui/controls.css";

/** "Mar 5, 2026, 4:07 PM" */
export function versionTime(iso: string): string {
  try {
    return format(parseISO(iso), "MMM d, yyyy, h:mm a");
  } catch {
    return iso;
  }
}

const isEmptyHtml = (html: string) => html.replace(/<[^>]*>/g, "").trim() === "" && !/<img\b/i.test(html);

type PanelProps = {
  slug: string;
  projectId: string;
  page: Page;
  members: readonly ProjectMember[];
  selected: string | null;
  onSelect: (versionId: string | null) => void;
  onClose: () => void;
};

export function VersionPanel({ slug, projectId, page, members, selected, onSelect, onClose }: PanelProps) {
  const { t } = useTranslation();
  const snap = useSnapshot(pages);
  const entry = snap.versions[page.id];

  useEffect(() => {
    void loadVersions(slug, projectId, page.id).catch(() => undefined);
  }, [slug, projectId, page.id]);

  const list = (entry?.list ?? []) as PageVersion[];
  return (
    <aside className="pg-versions" aria-label={t("pages.versions.title")}>
      <div className="pg-versions-head">
        <History size={15} aria-hidden />
        <h2 className="pg-versions-title">{t("pages.versions.title")}</h2>
        <span className="spacer" />
        <button
          type="button"
          className="ui-icon-btn pg-icon-btn"
          aria-label={t("pages.versions.close")}
          title={t("pages.versions.close")}
          onClick={onClose}
        >
          <X size={15} aria-hidden />
        </button>
      </div>
      <ul className="pg-version-list">
        <li>
          <button
            type="button"
            className="pg-version"
            aria-current={selected === null ? "true" : undefined}
            onClick={() => onSelect(null)}
          >
            <span className="pg-version-time">{t("pages.versions.current")}</span>
          </button>
        </li>
        {!entry || (entry.status === "loading" && list.length === 0) ? (
          <li className="pg-version-skeleton" aria-hidden>
            <Skeleton height={12} width="70%" />
            <Skeleton height={10} width="45%" />
          </li>
        ) : null}
        {list.map((version) => {
          const who = personOf(members, version.owned_by, t("pages.someone"));
          return (
            <li key={version.id}>
              <button
                type="button"
                className="pg-version"
                aria-current={selected === version.id ? "true" : undefined}
                onClick={() => onSelect(version.id)}
              >
                <span className="pg-version-time">{versionTime(version.last_saved_at)}</span>
                <span className="pg-version-who">
                  <Avatar name={who.name} src={who.avatarUrl} size={16} />
                  {t("pages.versions.by", { name: who.name })}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {entry?.status === "error" ? (
        <div className="pg-versions-note">
          <Banner>{t("pages.versions.loadFailed")}</Banner>
        </div>
      ) : entry?.status === "ready" && list.length === 0 ? (
        <div className="pg-versions-note">
          <p className="pg-versions-empty">{t("pages.versions.empty")}</p>
          <p className="pg-versions-hint">{t("pages.versions.emptyHint")}</p>
        </div>
      ) : null}
    </aside>
  );
}

type PreviewProps = {
  slug: string;
  projectId: string;
  page: Page;
  versionId: string;
  canRestore: boolean;
  onBack: () => void;
};

/** The selected version, read-only, in place of the editor. */
export function VersionPreview({ slug, projectId, page, versionId, canRestore, onBack }: PreviewProps) {
  const { t } = useTranslation();
  const snap = useSnapshot(pages);
  const version = snap.versionDetails[versionId];
  const listed = snap.versions[page.id]?.list.find((v) => v.id === versionId);
  const [failed, setFailed] = useState(false);
  const [confirm, setConfirm] = useState(false);

  useEffect(() => {
    setFailed(false);
    loadVersion(slug, projectId, page.id, versionId).catch(() => setFailed(true));
  }, [slug, projectId, page.id, versionId]);

  const when = version?.last_saved_at ?? listed?.last_saved_at;
  return (
    <section
      className="pg-version-preview"
      aria-label={t("pages.versions.preview", { time: when ? versionTime(when) : "" })}
    >
      <div className="pg-version-bar">
        <div className="pg-version-bar-text">
          <strong>{when ? t("pages.versions.preview", { time: versionTime(when) }) : <Skeleton width={160} />}</strong>
          <span>{t("pages.versions.previewHint")}</span>
        </div>
        <Button size="sm" variant="secondary" onClick={onBack}>
          <ArrowLeft size={14} aria-hidden />
          {t("pages.versions.back")}
        </Button>
        {canRestore ? (
          <Button size="sm" disabled={!version} onClick={() => setConfirm(true)}>
            <RotateCcw size={14} aria-hidden />
            {t("pages.versions.restore")}
          </Button>
        ) : null}
      </div>
      {failed ? (
        <Banner>{t("pages.versions.versionLoadFailed")}</Banner>
      ) : !version ? (
        <div className="pg-version-loading" role="status">
          <Spinner />
          {t("pages.versions.loading")}
        </div>
      ) : isEmptyHtml(version.description_html) ? (
        <p className="pg-version-empty">{t("pages.versions.emptyBody")}</p>
      ) : (
        <RichTextView html={version.description_html} className="pg-version-body" />
      )}
      <ConfirmModal
        open={confirm}
        onOpenChange={setConfirm}
        danger={false}
        title={t("pages.versions.restoreTitle")}
        description={t("pages.versions.restoreDescription")}
        confirmLabel={t("pages.versions.restoreConfirm")}
        onConfirm={async () => {
          const ok = await restoreVersion(slug, projectId, page.id, versionId);
          setConfirm(false);
          if (ok) {
            toast.success(t("pages.versions.restored"));
            onBack();
          }
        }}
      />
    </section>
  );
}
