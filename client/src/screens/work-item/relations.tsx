/**
 * Relations: blocked by, blocking, relates to, duplicate of (and the timeline ones when the
 * server has them). Add by choosing the kind and searching (search-issues/?issue_relation=true);
 * remove one with its ×.
 */
import { Plus, X } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "../../components/ui";
import { addRelation, RELATION_KINDS, type RelationKind, removeRelation } from "../../stores/work-item-detail";
import { ItemSearch } from "./item-search";
import { StateIcon } from "./state-icon";
import { browsePath, useDetail, useDetailContext, useProjectMeta } from "./use-detail";
import { Widget } from "./widget";

const SHOWN_ORDER = [...RELATION_KINDS, "start_before", "start_after", "finish_before", "finish_after"] as const;

export function Relations({ workItemId }: { workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const meta = useProjectMeta(ctx.projectId);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<RelationKind>("blocked_by");
  const relations = detail?.relations ?? {};
  const groups = SHOWN_ORDER.map((k) => ({ kind: k, items: relations[k] ?? [] })).filter((g) => g.items.length);
  const count = groups.reduce((n, g) => n + g.items.length, 0);

  const add = ctx.canEdit ? (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="sm">
          <Plus size={14} aria-hidden />
          {t("workItem.relations.add")}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="picker-pop wid-picker" sideOffset={4} align="end">
          <ItemSearch
            slug={ctx.slug}
            projectId={ctx.projectId}
            workItemId={workItemId}
            mode="issue_relation"
            label={t("workItem.relations.searchLabel")}
            header={
              <fieldset className="wid-segmented">
                <legend className="visually-hidden">{t("workItem.relations.kind")}</legend>
                {RELATION_KINDS.map((k) => (
                  <label key={k} className={k === kind ? "is-on" : undefined}>
                    <input
                      type="radio"
                      name="relation-kind"
                      value={k}
                      checked={k === kind}
                      onChange={() => setKind(k)}
                    />
                    {t(`workItem.relations.${k}`)}
                  </label>
                ))}
              </fieldset>
            }
            onPick={(picked) => {
              setOpen(false);
              void addRelation(ctx.slug, ctx.projectId, workItemId, kind, picked);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  ) : null;

  return (
    <Widget title={t("workItem.relations.title")} count={count} actions={add}>
      {groups.length === 0 ? <p className="wid-empty">{t("workItem.relations.empty")}</p> : null}
      {groups.map((group) => (
        <div key={group.kind} className="wid-relation-group">
          <h4 className="wid-subheading">{t(`workItem.relations.${group.kind}`)}</h4>
          <ul className="wid-rows">
            {group.items.map((item) => {
              const key = `${item.project_identifier}-${item.sequence_id}`;
              const state =
                item.project_id === ctx.projectId ? meta?.states.find((s) => s.id === item.state_id) : undefined;
              return (
                <li key={item.id} className="wid-row">
                  <StateIcon group={state?.group ?? item.state__group} color={state?.color} />
                  <span className="wid-key">{key}</span>
                  <Link className="wid-row-name" to={browsePath(ctx.slug, key)}>
                    {item.name}
                  </Link>
                  {ctx.canEdit ? (
                    <button
                      type="button"
                      className="wid-icon-btn"
                      aria-label={t("workItem.relations.remove", { key })}
                      onClick={() => void removeRelation(ctx.slug, ctx.projectId, workItemId, group.kind, item.id)}
                    >
                      <X size={14} aria-hidden />
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </Widget>
  );
}
