/**
 * The home's Recents: the work items, pages and projects the caller opened lately, newest first
 * (GET recent-visits/), with a filter between the kinds. Each row opens its screen: a work item
 * by its key, an epic on its page, a page, a project's work items. Read again each time the home
 * opens; what was shown stays while the new answer comes.
 */
import { FileText, History, Layers, SquareCheckBig } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../../components/ui";
import {
  home,
  loadRecents,
  RECENT_FILTERS,
  type RecentFilter,
  type RecentVisit,
  recentVisitPath,
  setRecentsFilter,
} from "../../../stores/home";
import { relativeTime } from "../../work-item/format";
import { PriorityIcon } from "../../work-item/state-icon";
import { LoadFailedState } from "../components/list-parts";
import { ProjectLogo } from "../components/logos";
import { SkeletonRows } from "../components/skeleton";

/** Rows shown before "Show all" (the server answers up to 20). */
const FOLDED = 7;

export function RecentsWidget({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const [unfolded, setUnfolded] = useState(false);
  const recents = useSnapshot(home).bySlug[slug]?.recents;
  const filter = recents?.filter ?? "all";
  const list = recents?.lists[filter];
  const headingId = useId();

  // Visits happen everywhere else: read them again each time the home (or the filter) opens.
  useEffect(() => {
    void loadRecents(slug).catch(() => undefined);
  }, [slug]);

  const items = (list?.items ?? []) as RecentVisit[];

  return (
    <section className="home-widget" aria-labelledby={headingId}>
      <div className="home-widget-head">
        <h2 className="section-title" id={headingId}>
          {t("home.widgets.recents")}
        </h2>
        <fieldset className="home-segments" aria-label={t("home.recents.filterLabel")}>
          {RECENT_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className="home-segment"
              aria-pressed={filter === f}
              onClick={() => setRecentsFilter(slug, f)}
            >
              {t(`home.recents.filters.${f}`)}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="home-widget-box recents-box">
        {!list || (list.status === "loading" && items.length === 0) ? (
          <SkeletonRows count={4} height={40} />
        ) : list.status === "error" && items.length === 0 ? (
          <LoadFailedState
            icon={History}
            title={t("home.recents.loadFailed")}
            retryLabel={t("home.recents.retry")}
            onRetry={() => void loadRecents(slug, filter).catch(() => undefined)}
          />
        ) : items.length === 0 ? (
          <RecentsEmpty filter={filter} />
        ) : (
          <>
            <ul className="home-rows" aria-labelledby={headingId}>
              {(unfolded ? items : items.slice(0, FOLDED)).map((visit) => (
                <RecentRow key={visit.id} slug={slug} visit={visit} />
              ))}
            </ul>
            {items.length > FOLDED ? (
              <div className="home-rows-more">
                <Button variant="ghost" size="sm" onClick={() => setUnfolded((x) => !x)} aria-expanded={unfolded}>
                  {unfolded ? t("home.recents.showFewer") : t("home.recents.showAll", { count: items.length })}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

function RecentsEmpty({ filter }: { filter: RecentFilter }) {
  const { t } = useTranslation();
  const icon = filter === "page" ? FileText : filter === "issue" ? SquareCheckBig : History;
  return (
    <EmptyState
      icon={icon}
      title={t(`home.recents.empty.${filter}`)}
      description={t(`home.recents.empty.${filter}Hint`)}
    />
  );
}

function RecentRow({ slug, visit }: { slug: string; visit: RecentVisit }) {
  const { t } = useTranslation();
  const when = relativeTime(visit.visited_at);
  let mark: React.ReactNode;
  let key: string | null = null;
  let name: string;
  let context: string;
  if (visit.entity_name === "issue") {
    const d = visit.entity_data;
    mark = d.is_epic ? <Layers size={15} aria-hidden /> : <SquareCheckBig size={15} aria-hidden />;
    key = `${d.project_identifier}-${d.sequence_id}`;
    name = d.name;
    context = t(d.is_epic ? "home.recents.kinds.epic" : "home.recents.kinds.issue");
  } else if (visit.entity_name === "page") {
    const d = visit.entity_data;
    mark = <FileText size={15} aria-hidden />;
    name = d.name || t("home.recents.untitledPage");
    context = `${t("home.recents.kinds.page")} · ${d.project_identifier}`;
  } else {
    const d = visit.entity_data;
    mark = <ProjectLogo name={d.name} logo={d.logo_props} size={18} />;
    key = d.identifier;
    name = d.name;
    context = t("home.recents.kinds.project");
  }
  return (
    <li>
      <Link className="home-row" to={recentVisitPath(slug, visit)}>
        <span className="home-row-mark">{mark}</span>
        <span className="home-row-key">{key}</span>
        <span className="home-row-name">{name}</span>
        {visit.entity_name === "issue" && visit.entity_data.priority !== "none" ? (
          <span className="home-row-priority" title={visit.entity_data.priority}>
            <PriorityIcon priority={visit.entity_data.priority} size={14} />
          </span>
        ) : null}
        <span className="home-row-context">{context}</span>
        <span className="home-row-time" title={t("home.recents.visited", { when })}>
          {when}
        </span>
      </Link>
    </li>
  );
}
