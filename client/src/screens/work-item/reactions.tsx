/**
 * Reactions under a comment (or on the item): one toggle per emoji with its count (pressed when
 * the viewer reacted) and a picker of common emoji.
 */
import { personName } from "@tideline/shared";
import { SmilePlus } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Reaction } from "../../stores/work-item-detail";
import { COMMON_REACTIONS, groupReactions, joinNames } from "./format";
import { metaNames, useDetailContext, useProjectMeta, useViewerId } from "./use-detail";

function reactorName(r: Reaction, nameOf: (id: string) => string | undefined): string | null {
  const a = r.actor_detail;
  if (a) return personName(a);
  return nameOf(r.actor) ?? r.display_name ?? null;
}

export function ReactionBar({
  reactions,
  onToggle,
  disabled,
}: {
  reactions: readonly Reaction[];
  onToggle: (emoji: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const viewer = useViewerId();
  const ctx = useDetailContext();
  const names = metaNames(useProjectMeta(ctx.projectId));
  const [open, setOpen] = useState(false);
  const groups = groupReactions(
    reactions.map((r) => ({ reaction: r.reaction, actor: r.actor, actor_name: reactorName(r, names.member) })),
    viewer,
  );
  return (
    <div className="wid-reactions">
      {groups.map((g) => (
        <button
          key={g.emoji}
          type="button"
          className={g.mine ? "wid-reaction is-mine" : "wid-reaction"}
          aria-pressed={g.mine}
          aria-label={t("workItem.reactions.toggle", {
            emoji: g.emoji,
            count: String(g.count),
            names: joinNames(g.names),
          })}
          title={joinNames(g.names)}
          disabled={disabled}
          onClick={() => onToggle(g.emoji)}
        >
          <span aria-hidden>{g.emoji}</span>
          <span className="wid-reaction-count">{g.count}</span>
        </button>
      ))}
      {disabled ? null : (
        <Popover.Root open={open} onOpenChange={setOpen}>
          <Popover.Trigger asChild>
            <button
              type="button"
              className="wid-reaction wid-reaction-add"
              aria-label={t("workItem.reactions.add")}
              title={t("workItem.reactions.add")}
            >
              <SmilePlus size={14} aria-hidden />
            </button>
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="picker-pop wid-emoji-pop" sideOffset={4} align="start">
              <div className="wid-emoji-grid">
                {COMMON_REACTIONS.map((emoji) => (
                  <button
                    key={emoji}
                    type="button"
                    className="wid-emoji"
                    aria-label={t("workItem.reactions.react", { emoji })}
                    onClick={() => {
                      setOpen(false);
                      onToggle(emoji);
                    }}
                  >
                    {emoji}
                  </button>
                ))}
              </div>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      )}
    </div>
  );
}
