/**
 * Pieces every modules screen shares: the project context (project, role, members), the crumbs,
 * the status icon and label, the progress ring and people avatars.
 */

import { MODULE_STATUSES, type ModuleStatus, personName, ROLE } from "@tideline/shared";
import clsx from "clsx";
import {
  Circle,
  CircleCheck,
  CircleDashed,
  CircleDot,
  CirclePause,
  CircleX,
  FolderKanban,
  type LucideIcon,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Avatar, type ComboOption } from "../../components/ui";
import type { ProjectMember } from "../../stores/project-meta";
import type { Project } from "../../stores/projects";
import { ProjectLogo } from "../workspace/components/logos";
import { Skeleton } from "../workspace/components/skeleton";
import { useProjectScreen } from "../workspace/use-project-screen";

export const STATUS_ICONS: Record<ModuleStatus, LucideIcon> = {
  backlog: CircleDashed,
  planned: Circle,
  "in-progress": CircleDot,
  paused: CirclePause,
  completed: CircleCheck,
  cancelled: CircleX,
};

export function StatusIcon({ status, size = 14 }: { status: ModuleStatus; size?: number }) {
  const Icon = STATUS_ICONS[status];
  return <Icon size={size} className={clsx("mo-status-icon", `mo-status-${status}`)} aria-hidden />;
}

export function useStatusOptions(): ComboOption[] {
  const { t } = useTranslation();
  return MODULE_STATUSES.map((s) => ({ value: s, label: t(`modules.status.${s}`), icon: <StatusIcon status={s} /> }));
}

/** A ring filled to `percent` (0–100). */
export function ProgressRing({ percent, size = 18 }: { percent: number; size?: number }) {
  const r = (size - 4) / 2;
  const c = 2 * Math.PI * r;
  return (
    <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} className="mo-ring" aria-hidden>
      <circle cx={size / 2} cy={size / 2} r={r} className="mo-ring-track" strokeWidth={2.5} fill="none" />
      <circle
        cx={size / 2}
        cy={size / 2}
        r={r}
        className="mo-ring-fill"
        strokeWidth={2.5}
        fill="none"
        strokeDasharray={c}
        strokeDashoffset={c * (1 - Math.min(100, Math.max(0, percent)) / 100)}
        transform={`rotate(-90 ${size / 2} ${size / 2})`}
        strokeLinecap="round"
      />
    </svg>
  );
}

export type ModuleProjectContext = ReturnType<typeof useModuleProject>;

/** The project screen's context plus the modules' own rights. */
export function useModuleProject(projectId: string) {
  const ctx = useProjectScreen(projectId);
  return {
    ...ctx,
    canEdit: ctx.projectRole >= ROLE.member && !ctx.project?.archived_at,
    isAdmin: ctx.projectRole >= ROLE.admin,
  };
}

export type Person = { id: string; name: string; avatarUrl: string | null };

export function personOf(members: readonly ProjectMember[], userId: string | null | undefined): Person | null {
  const member = userId ? members.find((m) => m.member === userId)?.member_details : undefined;
  return member && userId ? { id: userId, name: personName(member), avatarUrl: member.avatar_url } : null;
}

export function memberOptions(members: readonly ProjectMember[]): ComboOption[] {
  return members.map((m) => ({
    value: m.member,
    label: personName(m.member_details),
    keywords: m.member_details.email,
    icon: <Avatar name={personName(m.member_details)} src={m.member_details.avatar_url} size={18} />,
  }));
}

/** Up to `max` overlapping avatars and "+n". */
export function AvatarStack({
  people,
  max = 3,
  size = 20,
}: {
  people: readonly Person[];
  max?: number;
  size?: number;
}) {
  const shown = people.slice(0, max);
  return (
    <span className="mo-avatars" title={people.map((p) => p.name).join(", ")}>
      {shown.map((p) => (
        <Avatar key={p.id} name={p.name} src={p.avatarUrl} size={size} />
      ))}
      {people.length > max ? <span className="mo-avatars-more">+{people.length - max}</span> : null}
    </span>
  );
}

/** Projects / <project> / — the start of the modules screens' headers. */
export function ProjectCrumbs({ slug, project }: { slug: string; project: Project | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <Link className="crumb mo-hide-narrow" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep mo-hide-narrow">/</span>
      {project ? (
        <Link className="crumb mo-crumb-project mo-hide-small" to={`/${slug}/projects/${project.id}/issues/`}>
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          <span className="mo-crumb-name">{project.name}</span>
        </Link>
      ) : (
        <Skeleton width={120} />
      )}
      <span className="crumb-sep mo-hide-small">/</span>
    </>
  );
}

export const modulesUrl = (slug: string, projectId: string) => `/${slug}/projects/${projectId}/modules/`;
export const moduleUrl = (slug: string, projectId: string, moduleId: string) =>
  `/${slug}/projects/${projectId}/modules/${moduleId}/`;
