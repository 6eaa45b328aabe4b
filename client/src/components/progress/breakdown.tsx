/**
 * Who holds a cycle's or module's work and which labels it carries: Assignees / Labels tabs over
 * rows of "name · bar · done/total". The server's distribution rows feed it (cycle analytics or
 * the module detail); `null` rows mean they are still loading.
 */
import { personName } from "@tideline/shared";
import { Tag, Users } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Skeleton } from "../../screens/workspace/components/skeleton";
import { Avatar } from "../ui";
import { TabList } from "./tab-list";
import "./progress.css";

type Counts = { completed_issues?: number; total_issues?: number };
export type AssigneeShareRow = Counts & {
  assignee_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
};
export type LabelShareRow = Counts & { label_id: string | null; label_name: string | null; color: string | null };

type Row = {
  key: string;
  name: string;
  person: boolean;
  avatar: string | null;
  color: string | null;
  done: number;
  total: number;
};

export function Breakdown({
  assignees,
  labels,
  failed = false,
  emptyText,
  className,
}: {
  assignees: readonly AssigneeShareRow[] | null;
  labels: readonly LabelShareRow[] | null;
  failed?: boolean;
  emptyText: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"assignees" | "labels">("assignees");
  const source = tab === "assignees" ? assignees : labels;
  const rows: Row[] | null =
    tab === "assignees"
      ? (assignees?.map((a) => ({
          key: a.assignee_id ?? "none",
          name: a.assignee_id
            ? personName({
                first_name: a.first_name ?? "",
                last_name: a.last_name ?? "",
                display_name: a.display_name ?? "",
              })
            : t("charts.breakdown.noAssignee"),
          person: Boolean(a.assignee_id),
          avatar: a.avatar_url,
          color: null,
          done: a.completed_issues ?? 0,
          total: a.total_issues ?? 0,
        })) ?? null)
      : (labels?.map((l) => ({
          key: l.label_id ?? "none",
          name: l.label_id ? (l.label_name ?? "") : t("charts.breakdown.noLabel"),
          person: false,
          avatar: null,
          color: l.label_id ? l.color : null,
          done: l.completed_issues ?? 0,
          total: l.total_issues ?? 0,
        })) ?? null);
  return (
    <section className={className}>
      <div className="pg-breakdown-head">
        <TabList
          className="pg-mini-tabs"
          label={t("charts.breakdown.label")}
          value={tab}
          onChange={setTab}
          items={[
            {
              key: "assignees",
              label: (
                <>
                  <Users size={12} aria-hidden />
                  {t("charts.breakdown.assignees")}
                </>
              ),
            },
            {
              key: "labels",
              label: (
                <>
                  <Tag size={12} aria-hidden />
                  {t("charts.breakdown.labels")}
                </>
              ),
            },
          ]}
        />
      </div>
      {!source || !rows ? (
        failed ? (
          <p className="pg-breakdown-empty">{t("charts.breakdown.failed")}</p>
        ) : (
          <div className="pg-breakdown-rows">
            <Skeleton width="70%" />
            <Skeleton width="55%" />
          </div>
        )
      ) : rows.length === 0 ? (
        <p className="pg-breakdown-empty">{emptyText}</p>
      ) : (
        <ul className="pg-breakdown-rows">
          {rows.map((r) => (
            <li key={r.key} className="pg-breakdown-row">
              {r.person ? (
                <Avatar name={r.name} src={r.avatar || null} size={18} />
              ) : r.color ? (
                <span className="pg-label-dot" style={{ background: r.color }} aria-hidden />
              ) : (
                <span className="pg-label-dot pg-label-dot-none" aria-hidden />
              )}
              <span className="pg-breakdown-name">{r.name}</span>
              <span className="pg-breakdown-bar" aria-hidden>
                <span style={{ width: `${r.total ? (r.done / r.total) * 100 : 0}%` }} />
              </span>
              <span className="pg-breakdown-count">
                {t("charts.breakdown.count", { done: r.done, total: r.total })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
