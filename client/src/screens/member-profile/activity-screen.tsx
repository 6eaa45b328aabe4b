import { personName, ROLE } from "@tideline/shared";
import { format, parseISO } from "date-fns";
import { Download, History } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Avatar, Banner, Button, DateInput, EmptyState, Modal, ModalFooter, toDay } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import {
  exportMemberActivity,
  loadMemberActivity,
  memberProfile,
  type ProfileActivity,
  profileKey,
} from "../../stores/member-profile";
import { members } from "../../stores/members";
import { projectMeta } from "../../stores/project-meta";
import { actorName, describeActivity, foldActivity } from "../work-item/activity-format";
import { SkeletonRows } from "../workspace/components/skeleton";
import { useProfileOutlet } from "./member-profile-layout";
import { exportFileName, groupByDay } from "./profile-logic";

/**
 * The activity tab: the member's changes to work items, newest first, under their day, in the
 * same words as a work item's own history (work-item/activity-format.ts), each naming the item it
 * touched. "Load more" fetches the next page. Members and admins can export one day as CSV.
 */
export function ProfileActivityScreen() {
  const { t } = useTranslation();
  const { slug, userId, callerRole, name, isMe } = useProfileOutlet();
  const snap = useSnapshot(memberProfile);
  const metaSnap = useSnapshot(projectMeta);
  const membersSnap = useSnapshot(members);
  const [exporting, setExporting] = useState(false);
  const key = profileKey(slug, userId);
  const entry = snap.activity[key];

  useEffect(() => {
    loadMemberActivity(slug, userId).catch(async (error: unknown) => toast.error(await errorMessage(error)));
  }, [slug, userId]);

  const rows = (entry?.rows ?? []) as readonly ProfileActivity[];
  // The history keeps every save of a title or description; show each burst once (oldest first in, newest first out).
  const days = useMemo(
    () => groupByDay([...foldActivity([...rows].reverse())].reverse(), (iso) => toDay(parseISO(iso))),
    [rows],
  );
  const translate = (k: string, vars?: Record<string, string>) => t(k, vars ?? {});
  // Names of states, labels and people as the project has them now, where the board already loaded them.
  const people = membersSnap.bySlug[slug];
  const member = (id: string) => {
    const found = people?.find((m) => m.member.id === id);
    return found ? personName(found.member) : undefined;
  };
  const resolversFor = (projectId: string) => {
    const meta = metaSnap.byProject[projectId];
    if (!meta) return { member };
    return {
      member,
      state: (id: string) => meta.states.find((s) => s.id === id)?.name,
      label: (id: string) => meta.labels.find((l) => l.id === id)?.name,
    };
  };
  const canExport = (callerRole ?? 0) >= ROLE.member;

  return (
    <div className="mp-activity">
      <div className="mp-list-toolbar">
        <span className="mp-list-count muted">
          {entry?.status === "ready" ? t("memberProfile.activity.count", { count: entry.total }) : ""}
        </span>
        {canExport ? (
          <Button variant="secondary" size="sm" onClick={() => setExporting(true)}>
            <Download size={14} aria-hidden />
            {t("memberProfile.activity.export")}
          </Button>
        ) : null}
      </div>

      {entry?.status === "error" && rows.length === 0 ? (
        <Banner kind="error">{t("memberProfile.error")}</Banner>
      ) : !entry || (entry.status === "loading" && rows.length === 0) ? (
        <SkeletonRows count={6} height={40} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={History}
          title={t("memberProfile.activity.empty", { name: isMe ? t("memberProfile.you") : name })}
        />
      ) : (
        <>
          {days.map((day) => (
            <section
              key={day.day}
              className="mp-activity-day"
              aria-label={format(parseISO(day.day), "EEEE, MMM d, yyyy")}
            >
              <h3 className="mp-section-title">{format(parseISO(day.day), "EEEE, MMM d, yyyy")}</h3>
              <ol className="mp-activity-list">
                {day.rows.map((row) => {
                  const ident = row.project_detail?.identifier ?? "";
                  const itemKey = row.issue_detail ? `${ident}-${row.issue_detail.sequence_id}` : null;
                  return (
                    <li key={row.id} className="mp-activity-row" data-testid="profile-activity-row">
                      <Avatar name={actorName(row, translate)} src={row.actor_detail?.avatar_url ?? null} size={22} />
                      <div className="mp-activity-text">
                        <span>{describeActivity(row, translate, resolversFor(row.project))}</span>
                        {itemKey && row.issue_detail ? (
                          <Link to={`/${slug}/browse/${itemKey}/`} className="mp-activity-item">
                            <span className="mp-row-key">{itemKey}</span>
                            <span className="mp-activity-item-name">{row.issue_detail.name}</span>
                          </Link>
                        ) : null}
                      </div>
                      <time className="mp-activity-time muted" dateTime={row.created_at}>
                        {format(parseISO(row.created_at), "HH:mm")}
                      </time>
                    </li>
                  );
                })}
              </ol>
            </section>
          ))}
          {entry?.hasMore ? (
            <div className="mp-load-more">
              <Button
                variant="secondary"
                loading={entry.loadingMore}
                onClick={() =>
                  loadMemberActivity(slug, userId, true).catch(async (error: unknown) =>
                    toast.error(await errorMessage(error)),
                  )
                }
              >
                {t("memberProfile.activity.loadMore")}
              </Button>
            </div>
          ) : null}
        </>
      )}

      {canExport ? <ExportModal open={exporting} onOpenChange={setExporting} /> : null}
    </div>
  );
}

/** Pick a day and download that day's history as CSV (the server builds it; nothing is stored). */
function ExportModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { slug, userId, name } = useProfileOutlet();
  const today = toDay(new Date());
  const [day, setDay] = useState<string | null>(today);
  const [busy, setBusy] = useState(false);

  async function download() {
    if (!day) return;
    setBusy(true);
    try {
      await exportMemberActivity(slug, userId, day, exportFileName(name, day));
      toast.success(t("memberProfile.activity.exported"));
      onOpenChange(false);
    } catch (error) {
      toast.error(await errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("memberProfile.activity.exportTitle")}
      description={t("memberProfile.activity.exportDescription", { name })}
      width={420}
    >
      <label className="field-label" htmlFor="mp-export-day">
        {t("memberProfile.activity.exportDay")}
      </label>
      <DateInput
        id="mp-export-day"
        value={day}
        onChange={setDay}
        label={t("memberProfile.activity.exportDay")}
        labelled
        max={today}
      />
      <ModalFooter>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t("memberProfile.activity.cancel")}
        </Button>
        <Button onClick={() => void download()} loading={busy} disabled={!day} data-testid="profile-export-download">
          <Download size={14} aria-hidden />
          {t("memberProfile.activity.download")}
        </Button>
      </ModalFooter>
    </Modal>
  );
}
