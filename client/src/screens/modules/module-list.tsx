/**
 * The modules page's list and board layouts. A row: logo and name (a link to the module), status
 * picker, dates, lead, members, progress, star and the actions menu. The board has one column per
 * status (MODULE_STATUSES order); dropping a card on another column changes its status at once.
 */
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { MODULE_STATUSES, type ModuleStatus } from "@tideline/shared";
import clsx from "clsx";
import { format } from "date-fns";
import { Boxes, CalendarDays, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FavoriteStar } from "../../components/progress/favorite-star";
import { Avatar, Combobox, parseDay } from "../../components/ui";
import { percentDone } from "../../lib/progress";
import { type Module, setModuleFavorite, updateModule } from "../../stores/modules";
import {
  AvatarStack,
  type ModuleProjectContext,
  moduleUrl,
  type Person,
  ProgressRing,
  personOf,
  StatusIcon,
  useStatusOptions,
} from "./module-bits";
import { groupByStatus } from "./module-logic";
import { ModuleMenu } from "./module-menu";
import "../../components/ui/controls.css";

type Shared = { ctx: ModuleProjectContext; onEdit: (module: Module) => void };

function shortDay(value: string | null): string {
  const d = parseDay(value);
  return d ? format(d, "MMM d") : "";
}

export function DateRangeLabel({ module }: { module: Pick<Module, "start_date" | "target_date"> }) {
  const { t } = useTranslation();
  if (!module.start_date && !module.target_date)
    return <span className="mo-dates is-empty">{t("modules.noDates")}</span>;
  const year = parseDay(module.target_date ?? module.start_date)?.getFullYear();
  return (
    <span className="mo-dates">
      <CalendarDays size={13} aria-hidden />
      {shortDay(module.start_date) || "…"} – {shortDay(module.target_date) || "…"}
      {year && year !== new Date().getFullYear() ? `, ${year}` : ""}
    </span>
  );
}

export function StatusPicker({
  ctx,
  module,
  compact,
}: {
  ctx: ModuleProjectContext;
  module: Module;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const options = useStatusOptions();
  const label = t(`modules.status.${module.status}`);
  if (!ctx.canEdit) {
    return (
      <span className="mo-status-chip" title={label}>
        <StatusIcon status={module.status} />
        {compact ? null : <span>{label}</span>}
      </span>
    );
  }
  return (
    <Combobox
      label={t("modules.form.status")}
      options={options}
      searchable={false}
      isSelected={(v) => v === module.status}
      onSelect={(v) => {
        if (v !== module.status)
          void updateModule(ctx.slug, module.project_id, module.id, { status: v as ModuleStatus });
      }}
    >
      <button
        type="button"
        className="mo-status-chip is-button"
        aria-label={`${t("modules.form.status")}: ${label}`}
        title={label}
        onPointerDown={(e) => e.stopPropagation()}
      >
        <StatusIcon status={module.status} />
        {compact ? null : <span>{label}</span>}
      </button>
    </Combobox>
  );
}

function ModuleStar({ ctx, module }: { ctx: ModuleProjectContext; module: Module }) {
  return (
    <FavoriteStar
      className="ui-icon-btn mo-icon-btn"
      on={Boolean(module.is_favorite)}
      name={module.name}
      onToggle={(next) => void setModuleFavorite(ctx.slug, module.project_id, module.id, next)}
    />
  );
}

function ProgressLabel({ module }: { module: Module }) {
  const { t } = useTranslation();
  const percent = percentDone(module);
  return (
    <span
      className="mo-progress"
      title={t("modules.progressTitle", { done: module.completed_issues, total: module.total_issues })}
    >
      <ProgressRing percent={percent} />
      <span className="mo-progress-pct">{percent}%</span>
      <span className="mo-progress-count">
        {module.completed_issues}/{module.total_issues}
      </span>
    </span>
  );
}

function useMembers(ctx: ModuleProjectContext, module: Module) {
  const lead = personOf(ctx.members, module.lead_id);
  const people = module.member_ids.map((id) => personOf(ctx.members, id)).filter((p): p is Person => Boolean(p));
  return { lead, people };
}

export function ModuleListRows({ ctx, modules, onEdit }: Shared & { modules: readonly Module[] }) {
  const { t } = useTranslation();
  return (
    <ul className="mo-rows" aria-label={t("modules.title")}>
      {modules.map((m) => (
        <ModuleRow key={m.id} ctx={ctx} module={m} onEdit={onEdit} />
      ))}
    </ul>
  );
}

function ModuleRow({ ctx, module, onEdit }: Shared & { module: Module }) {
  const { t } = useTranslation();
  const { lead, people } = useMembers(ctx, module);
  return (
    <li className="mo-row" data-testid="module-row">
      <Link className="mo-row-link" to={moduleUrl(ctx.slug, module.project_id, module.id)}>
        <span className="mo-row-logo">
          <Boxes size={15} aria-hidden />
        </span>
        <span className="mo-row-name">{module.name}</span>
      </Link>
      <span className="mo-row-meta">
        <ProgressLabel module={module} />
        <span className="mo-hide-phone">
          <DateRangeLabel module={module} />
        </span>
        <StatusPicker ctx={ctx} module={module} />
        <span className="mo-row-lead mo-hide-phone">
          {lead ? (
            <span title={t("modules.leadIs", { name: lead.name })}>
              <Avatar name={lead.name} src={lead.avatarUrl} size={22} />
            </span>
          ) : (
            <span className="mo-avatar-empty" title={t("modules.noLead")} />
          )}
        </span>
        <span className="mo-row-members mo-hide-phone">{people.length ? <AvatarStack people={people} /> : null}</span>
        <ModuleStar ctx={ctx} module={module} />
        <ModuleMenu ctx={ctx} module={module} onEdit={() => onEdit(module)} hideFavorite />
      </span>
    </li>
  );
}

// ───────────── board ─────────────

export function ModuleBoard({
  ctx,
  modules,
  onEdit,
  onCreateIn,
}: Shared & { modules: readonly Module[]; onCreateIn?: (status: ModuleStatus) => void }) {
  const { t } = useTranslation();
  const groups = useMemo(() => groupByStatus(modules, MODULE_STATUSES), [modules]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor),
  );
  const [dragging, setDragging] = useState<Module | null>(null);
  const onDragStart = (e: DragStartEvent) => setDragging(modules.find((m) => m.id === e.active.id) ?? null);
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const module = modules.find((m) => m.id === e.active.id);
    const status = e.over?.id as ModuleStatus | undefined;
    if (module && status && status !== module.status)
      void updateModule(ctx.slug, module.project_id, module.id, { status });
  };
  return (
    <DndContext
      sensors={sensors}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragging(null)}
    >
      <div className="mo-board">
        {MODULE_STATUSES.map((status) => {
          const list = groups.get(status) ?? [];
          return (
            <BoardColumn
              key={status}
              status={status}
              count={list.length}
              onCreate={ctx.canEdit && onCreateIn ? () => onCreateIn(status) : undefined}
            >
              {list.map((m) => (
                <BoardCard key={m.id} ctx={ctx} module={m} onEdit={onEdit} draggable={ctx.canEdit} />
              ))}
              {list.length === 0 ? <p className="mo-column-empty">{t("modules.board.empty")}</p> : null}
            </BoardColumn>
          );
        })}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragging ? (
          <div className="mo-card is-overlay">
            <CardBody ctx={ctx} module={dragging} onEdit={onEdit} static />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

function BoardColumn({
  status,
  count,
  onCreate,
  children,
}: {
  status: ModuleStatus;
  count: number;
  onCreate?: () => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: status });
  return (
    <section
      ref={setNodeRef}
      className={clsx("mo-column", isOver && "is-over")}
      aria-label={t(`modules.status.${status}`)}
      data-status={status}
    >
      <header className="mo-column-head">
        <StatusIcon status={status} />
        <span className="mo-column-title">{t(`modules.status.${status}`)}</span>
        <span className="mo-column-count">{count}</span>
        {onCreate ? (
          <button
            type="button"
            className="ui-icon-btn mo-icon-btn mo-icon-btn-sm"
            onClick={onCreate}
            aria-label={t("modules.board.addIn", { status: t(`modules.status.${status}`) })}
            title={t("modules.board.addIn", { status: t(`modules.status.${status}`) })}
          >
            <Plus size={14} aria-hidden />
          </button>
        ) : null}
      </header>
      <div className="mo-column-body">{children}</div>
    </section>
  );
}

function BoardCard({ ctx, module, onEdit, draggable }: Shared & { module: Module; draggable: boolean }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: module.id, disabled: !draggable });
  return (
    <div
      ref={setNodeRef}
      className={clsx("mo-card", isDragging && "is-dragging")}
      data-testid="module-card"
      {...attributes}
      {...listeners}
    >
      <CardBody ctx={ctx} module={module} onEdit={onEdit} />
    </div>
  );
}

function CardBody({ ctx, module, onEdit, static: isStatic }: Shared & { module: Module; static?: boolean }) {
  const { lead, people } = useMembers(ctx, module);
  const percent = percentDone(module);
  return (
    <>
      <div className="mo-card-top">
        <Link
          className="mo-card-name"
          to={moduleUrl(ctx.slug, module.project_id, module.id)}
          draggable={false}
          tabIndex={isStatic ? -1 : undefined}
        >
          {module.name}
        </Link>
        {isStatic ? null : (
          <>
            <ModuleStar ctx={ctx} module={module} />
            <ModuleMenu ctx={ctx} module={module} onEdit={() => onEdit(module)} hideFavorite />
          </>
        )}
      </div>
      <div className="mo-card-meta">
        <DateRangeLabel module={module} />
      </div>
      <div className="mo-card-bottom">
        <div className="mo-bar" aria-hidden>
          <span className="mo-bar-fill" style={{ width: `${percent}%` }} />
        </div>
        <span className="mo-progress-pct">{percent}%</span>
        <span className="mo-card-people">
          {lead ? <Avatar name={lead.name} src={lead.avatarUrl} size={20} /> : null}
          {people.length ? <AvatarStack people={people} max={2} size={20} /> : null}
        </span>
      </div>
    </>
  );
}
