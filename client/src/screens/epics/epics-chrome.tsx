/**
 * What the epics screens show when the project can't show epics (unknown, not joined, epics
 * turned off in its features), in place of their content. Null when it can.
 */
import { Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import type { PagesProjectContext } from "../pages/use-pages";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";

export function EpicsBlocked({ ctx, t }: { ctx: PagesProjectContext; t: (key: string) => string }): ReactNode {
  return projectScreenBlocked(
    ctx,
    {
      on: Boolean(ctx.project?.is_epic_enabled),
      icon: Sparkles,
      title: t("epics.disabled.title"),
      description: t("epics.disabled.description"),
      admin: { description: t("epics.disabled.adminDescription"), settings: t("epics.disabled.settings") },
    },
    t,
  );
}
