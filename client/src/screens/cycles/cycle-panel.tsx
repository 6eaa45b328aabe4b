/**
 * The details panel beside a cycle's work items: what the cycle is (status, dates, days left,
 * owner, description), its progress by state group, the burndown and the assignee/label
 * breakdown, and for a completed cycle with unfinished items, the transfer. Counters are local
 * (cycle-logic.ts countsLocally), so a change on the board moves them at once.
 */
import { personName } from "@tideline/shared";
import { ArrowRightLeft } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button } from "../../components/ui";
import type { Cycle } from "../../stores/cycles";
import { cycleActions } from "./cycle-logic";
import { CycleMenu } from "./cycle-menu";
import {
  CycleBreakdown,
  CycleBurndown,
  CycleDates,
  CycleProgress,
  DaysLeft,
  FavoriteStar,
  StatusBadge,
} from "./cycle-parts";
import { TransferModal } from "./transfer-modal";
import { type CyclesProjectContext, useCycleCounters, useCycleUnfinished } from "./use-cycles";

export function CyclePanel({ cycle, ctx }: { cycle: Cycle; ctx: CyclesProjectContext }) {
  const { t } = useTranslation();
  const [transferOpen, setTransferOpen] = useState(false);
  const counters = useCycleCounters(cycle, ctx);
  const unfinished = useCycleUnfinished(cycle, ctx);
  if (!counters) return null;
  const actions = cycleActions(cycle, { projectRole: ctx.projectRole, userId: ctx.userId, unfinished });
  const ownerId = cycle.owned_by_id ?? cycle.created_by;
  const owner = ctx.members.find((m) => m.member === ownerId)?.member_details;
  const archived = Boolean(cycle.archived_at);
  return (
    <div className="cy-panel" data-testid="cycle-panel">
      <div className="cy-panel-head">
        <StatusBadge status={cycle.status} />
        {archived ? <span className="cy-badge cy-badge-archived">{t("cycles.archived.badge")}</span> : null}
        <span className="cy-panel-tools">
          <FavoriteStar slug={ctx.slug} cycle={cycle} disabled={!actions.favorite} />
          {!archived ? (
            <CycleMenu
              slug={ctx.slug}
              cycle={cycle}
              actions={actions}
              unfinished={unfinished}
              leaveTo={`/${ctx.slug}/projects/${cycle.project_id}/cycles/`}
            />
          ) : null}
        </span>
      </div>
      <h2 className="cy-panel-name">{cycle.name}</h2>
      <dl className="cy-panel-facts">
        <div>
          <dt>{t("cycles.panel.dates")}</dt>
          <dd>
            <CycleDates cycle={cycle} />
          </dd>
        </div>
        {cycle.status === "current" ? (
          <div>
            <dt>{t("cycles.panel.daysLeft")}</dt>
            <dd>
              <DaysLeft cycle={cycle} />
            </dd>
          </div>
        ) : null}
        {owner ? (
          <div>
            <dt>{t("cycles.panel.owner")}</dt>
            <dd className="cy-owner">
              <Avatar name={personName(owner)} src={owner.avatar_url} size={18} />
              {personName(owner)}
            </dd>
          </div>
        ) : null}
      </dl>
      {cycle.description ? <p className="cy-panel-description">{cycle.description}</p> : null}
      {actions.transfer ? (
        <div className="cy-panel-transfer">
          <p>{t("cycles.panel.unfinished", { count: unfinished })}</p>
          <Button size="sm" variant="secondary" onClick={() => setTransferOpen(true)}>
            <ArrowRightLeft size={14} aria-hidden />
            {t("cycles.panel.transfer")}
          </Button>
          <TransferModal
            open={transferOpen}
            onOpenChange={setTransferOpen}
            slug={ctx.slug}
            cycle={cycle}
            unfinished={unfinished}
          />
        </div>
      ) : null}
      <CycleProgress counters={counters} />
      <CycleBurndown slug={ctx.slug} cycle={cycle} counters={counters} hasPoints={ctx.hasPoints} height={180} />
      <CycleBreakdown slug={ctx.slug} cycle={cycle} />
    </div>
  );
}
