import { personName } from "@tideline/shared";
import { ChevronDown, Download, FileDown } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Avatar, Button, Combobox, EmptyState, Select } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import {
  applyExportEvent,
  EXPORT_PROVIDERS,
  type ExportProvider,
  exportsStore,
  loadExports,
  loadMoreExports,
  startExport,
  type WorkspaceExport,
} from "../../../stores/exports";
import { watchWorkspaceLive } from "../../../stores/live-workspace";
import { fetchProjects, projects } from "../../../stores/projects";
import { SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import "./exports.css";

/** While an export runs, the list is also read every few seconds (in case the live socket is down). */
const POLL_MS = 3000;

const FORMAT_LABELS: Record<ExportProvider, string> = { csv: "CSV", xlsx: "Excel (xlsx)", json: "JSON" };

/** Workspace settings → Exports (admins): export work items as csv, xlsx or json; the history with downloads. */
export function WorkspaceExportsSettings() {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const snap = useSnapshot(exportsStore);
  const projectSnap = useSnapshot(projects);
  const [chosen, setChosen] = useState<string[]>([]);
  const [provider, setProvider] = useState<ExportProvider>("csv");
  const [busy, setBusy] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const isAdmin = can.manageExports(role);

  useEffect(() => {
    if (!isAdmin) return;
    void loadExports(slug).catch(() => undefined);
    void fetchProjects(slug).catch(() => undefined);
  }, [slug, isAdmin]);

  // Progress and new exports (also other admins') arrive on the workspace channel.
  const workspaceId = workspace?.id;
  useEffect(() => {
    if (!workspaceId || !isAdmin) return;
    return watchWorkspaceLive(slug, workspaceId, {
      onEvent: (event) => applyExportEvent(slug, event),
      onSynced: () => void loadExports(slug).catch(() => undefined),
    });
  }, [slug, workspaceId, isAdmin]);

  const list = snap.bySlug[slug] as readonly WorkspaceExport[] | undefined;
  const running = list?.some((e) => e.status === "queued" || e.status === "processing") ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => void loadExports(slug).catch(() => undefined), POLL_MS);
    return () => window.clearInterval(timer);
  }, [running, slug]);

  const mine = useMemo(
    () => (projectSnap.bySlug[slug] ?? []).filter((p) => p.is_member && !p.archived_at),
    [projectSnap.bySlug, slug],
  );
  const projectNames = useMemo(() => new Map(mine.map((p) => [p.id, p.name])), [mine]);

  if (workspace && !isAdmin) return <Navigate to={`/${slug}/settings/`} replace />;

  const submit = async () => {
    setBusy(true);
    try {
      await startExport(slug, provider, chosen);
      toast.success(t("settings.exports.started"));
    } catch (error) {
      toast.error(await errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const projectsLabel =
    chosen.length === 0
      ? t("settings.exports.allProjects")
      : chosen.length === 1
        ? (projectNames.get(chosen[0] ?? "") ?? t("settings.exports.projectCount", { count: 1 }))
        : t("settings.exports.projectCount", { count: chosen.length });

  return (
    <>
      <SettingsHeading title={t("settings.exports.title")} hint={t("settings.exports.hint")} />
      <section className="settings-section" aria-labelledby="export-new">
        <h2 id="export-new" className="export-subtitle">
          {t("settings.exports.new")}
        </h2>
        <div className="export-form">
          <div className="export-field">
            <span className="export-label" id="export-projects-label">
              {t("settings.exports.projects")}
            </span>
            <Combobox
              label={t("settings.exports.projects")}
              multiple
              options={mine.map((p) => ({ value: p.id, label: p.name, keywords: p.identifier }))}
              isSelected={(id) => chosen.includes(id)}
              onSelect={(id) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]))}
              searchPlaceholder={t("settings.exports.searchProjects")}
              footer={
                chosen.length ? (
                  <button type="button" className="export-clear" onClick={() => setChosen([])}>
                    {t("settings.exports.allProjects")}
                  </button>
                ) : null
              }
            >
              <button
                type="button"
                className="input select-trigger export-projects-trigger"
                aria-labelledby="export-projects-label export-projects-value"
              >
                <span className="select-trigger-value" id="export-projects-value">
                  {projectsLabel}
                </span>
                <ChevronDown size={14} className="select-trigger-chevron" aria-hidden />
              </button>
            </Combobox>
          </div>
          <div className="export-field">
            <span className="export-label" id="export-format-label">
              {t("settings.exports.format")}
            </span>
            <Select
              label={t("settings.exports.format")}
              value={provider}
              options={EXPORT_PROVIDERS.map((p) => ({ value: p, label: FORMAT_LABELS[p] }))}
              onValueChange={(value) => setProvider(value as ExportProvider)}
            />
          </div>
          <Button onClick={() => void submit()} disabled={busy || mine.length === 0} className="export-submit">
            <FileDown size={14} aria-hidden />
            {t("settings.exports.export")}
          </Button>
        </div>
        {projectSnap.bySlug[slug] && mine.length === 0 ? (
          <p className="muted export-note">{t("settings.exports.noProjects")}</p>
        ) : null}
      </section>

      <section className="settings-section" aria-labelledby="export-history">
        <h2 id="export-history" className="export-subtitle">
          {t("settings.exports.history")}
        </h2>
        <div className="member-list export-list">
          {list === undefined ? (
            <SkeletonRows count={3} height={56} />
          ) : list.length === 0 ? (
            <EmptyState
              icon={Download}
              title={t("settings.exports.empty")}
              description={t("settings.exports.emptyHint")}
            />
          ) : (
            list.map((row) => <ExportRowView key={row.id} row={row} projectNames={projectNames} />)
          )}
        </div>
        {snap.moreBySlug[slug] ? (
          <div>
            <Button
              variant="secondary"
              size="sm"
              disabled={loadingMore}
              onClick={() => {
                setLoadingMore(true);
                void loadMoreExports(slug)
                  .catch(async (error) => toast.error(await errorMessage(error)))
                  .finally(() => setLoadingMore(false));
              }}
            >
              {t("settings.exports.more")}
            </Button>
          </div>
        ) : null}
      </section>
    </>
  );
}

function ExportRowView({ row, projectNames }: { row: WorkspaceExport; projectNames: Map<string, string> }) {
  const { t, i18n } = useTranslation();
  const who = row.initiated_by_detail ? personName(row.initiated_by_detail) : t("settings.exports.someone");
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(row.created_at),
  );
  const names = row.project.map((id) => projectNames.get(id)).filter((n): n is string => Boolean(n));
  const projectText =
    names.length === row.project.length && names.length <= 2
      ? names.join(", ")
      : t("settings.exports.projectCount", { count: row.project.length });
  const running = row.status === "queued" || row.status === "processing";
  return (
    <div className="member-row export-row" data-testid="export-row" data-status={row.status}>
      <span className="badge export-format">{row.provider.toUpperCase()}</span>
      <div className="member-info">
        <span className="member-name" title={projectText}>
          {projectText}
        </span>
        <span className="export-meta">
          <Avatar name={who} src={row.initiated_by_detail?.avatar_url ?? null} size={16} />
          <span>{t("settings.exports.by", { name: who, when })}</span>
        </span>
      </div>
      <div className="export-state">
        {running ? (
          <div className="export-progress" title={t("settings.exports.progressOf", { progress: row.progress })}>
            <span className="export-status-text">
              {row.status === "queued"
                ? t("settings.exports.queued")
                : t("settings.exports.processing", { progress: row.progress })}
            </span>
            <div
              className="export-bar"
              role="progressbar"
              aria-label={t("settings.exports.progressLabel")}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={row.progress}
            >
              <div className="export-bar-fill" style={{ width: `${row.progress}%` }} />
            </div>
          </div>
        ) : row.status === "failed" ? (
          <span className="export-status-text export-failed" title={row.reason}>
            {t("settings.exports.failed")}
          </span>
        ) : row.is_expired ? (
          <span className="export-status-text muted">{t("settings.exports.expired")}</span>
        ) : row.url ? (
          <a
            className="btn btn-secondary btn-sm"
            href={row.url}
            download={row.file_name ?? true}
            aria-label={t("settings.exports.downloadOf", { name: row.file_name ?? row.provider })}
          >
            <Download size={14} aria-hidden />
            {t("settings.exports.download")}
          </a>
        ) : null}
      </div>
    </div>
  );
}
