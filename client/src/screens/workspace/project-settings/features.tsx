import { AVAILABLE_PROJECT_FEATURES, type ProjectFeature } from "@tideline/shared";
import { Boxes, Clock, Contrast, Eye, FileText, Inbox, Layers, type LucideIcon, Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { updateProject } from "../../../stores/projects";
import { Toggle } from "../components/toggle";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { useProjectSettings } from "./layout";

/**
 * Each feature's icon (the one its sidebar link shows, where it has one) and i18n key
 * (projects.features.<key>), ready for when it is built.
 */
const FEATURE_UI: Record<ProjectFeature, { icon: LucideIcon; i18n: string }> = {
  cycle_view: { icon: Contrast, i18n: "cycle_view" },
  module_view: { icon: Boxes, i18n: "module_view" },
  issue_views_view: { icon: Layers, i18n: "issue_views_view" },
  page_view: { icon: FileText, i18n: "page_view" },
  inbox_view: { icon: Inbox, i18n: "inbox_view" },
  is_epic_enabled: { icon: Sparkles, i18n: "is_epic_enabled" },
  is_time_tracking_enabled: { icon: Clock, i18n: "time" },
};

/**
 * Project settings → Features (project admins only): switch parts of the project on and off.
 * Only the features Tideline has are listed (AVAILABLE_PROJECT_FEATURES in shared: each domain
 * adds its flag there when it is built).
 */
export function ProjectFeaturesSettings() {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  if (!can.seeProjectFeatures(projectRole))
    return <Navigate to={`/${slug}/projects/${project.id}/settings/`} replace />;
  const locked = Boolean(project.archived_at);

  return (
    <>
      <div className="settings-heading">
        <div>
          <h1>{t("projects.settings.features")}</h1>
          <p className="muted">{t("projects.features.hint")}</p>
        </div>
      </div>
      <section className="settings-section">
        <div className="feature-list">
          {AVAILABLE_PROJECT_FEATURES.map((key) => {
            const { icon: Icon, i18n } = FEATURE_UI[key];
            return (
              <div key={key} className="feature-row" data-feature={key}>
                <span className="feature-icon">
                  <Icon size={16} aria-hidden />
                </span>
                <div className="feature-text">
                  <span className="feature-title">{t(`projects.features.${i18n}.title`)}</span>
                  <span className="feature-hint">{t(`projects.features.${i18n}.hint`)}</span>
                </div>
                <Toggle
                  label={t(`projects.features.${i18n}.title`)}
                  checked={Boolean(project[key])}
                  disabled={locked}
                  onCheckedChange={(value) => void updateProject(slug, project.id, { [key]: value })}
                />
              </div>
            );
          })}
        </div>
      </section>
      <section className="settings-section">
        <h2 className="section-title">{t("projects.features.guests")}</h2>
        <div className="feature-list">
          <div className="feature-row">
            <span className="feature-icon">
              <Eye size={16} aria-hidden />
            </span>
            <div className="feature-text">
              <span className="feature-title">{t("projects.features.guest_view_all_features.title")}</span>
              <span className="feature-hint">{t("projects.features.guest_view_all_features.hint")}</span>
            </div>
            <Toggle
              label={t("projects.features.guest_view_all_features.title")}
              checked={project.guest_view_all_features}
              disabled={locked}
              onCheckedChange={(value) => void updateProject(slug, project.id, { guest_view_all_features: value })}
            />
          </div>
        </div>
      </section>
    </>
  );
}
