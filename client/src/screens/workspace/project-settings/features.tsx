import { Clock, Eye, FileText, Inbox, Layers, type LucideIcon, Repeat, Sparkles, SquareStack } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { type ProjectFeatureKey, updateProject } from "../../../stores/projects";
import { Toggle } from "../components/toggle";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { useProjectSettings } from "./layout";

const FEATURES: { key: ProjectFeatureKey; icon: LucideIcon }[] = [
  { key: "cycle_view", icon: Repeat },
  { key: "module_view", icon: SquareStack },
  { key: "issue_views_view", icon: Layers },
  { key: "page_view", icon: FileText },
  { key: "inbox_view", icon: Inbox },
  { key: "is_epic_enabled", icon: Sparkles },
];

/** Project settings → Features (project admins only): switch parts of the project on and off. */
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
          {FEATURES.map(({ key, icon: Icon }) => (
            <div key={key} className="feature-row">
              <span className="feature-icon">
                <Icon size={16} aria-hidden />
              </span>
              <div className="feature-text">
                <span className="feature-title">{t(`projects.features.${key}.title`)}</span>
                <span className="feature-hint">{t(`projects.features.${key}.hint`)}</span>
              </div>
              <Toggle
                label={t(`projects.features.${key}.title`)}
                checked={Boolean(project[key])}
                disabled={locked}
                onCheckedChange={(value) => void updateProject(slug, project.id, { [key]: value })}
              />
            </div>
          ))}
          <div className="feature-row">
            <span className="feature-icon">
              <Clock size={16} aria-hidden />
            </span>
            <div className="feature-text">
              <span className="feature-title">
                {t("projects.features.time.title")} <span className="badge">{t("projects.features.pro")}</span>
              </span>
              <span className="feature-hint">{t("projects.features.time.hint")}</span>
            </div>
            <Toggle
              label={t("projects.features.time.title")}
              checked={false}
              disabled
              onCheckedChange={() => undefined}
            />
          </div>
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
