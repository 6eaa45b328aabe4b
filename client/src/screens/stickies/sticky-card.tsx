import { STICKY_COLORS, type StickyColor } from "@tideline/shared";
import clsx from "clsx";
import { Check, Ellipsis, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { RichTextEditor } from "../../components/editor";
import { deleteSticky, editStickyText, flushStickyText, type Sticky, updateSticky } from "../../stores/stickies";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "../workspace/components/menu";

/** The colour a sticky shows: its background colour, else the one the reference calls color, else gray. */
export function stickyColor(sticky: Pick<Sticky, "background_color" | "color">): StickyColor {
  return sticky.background_color ?? sticky.color ?? "gray";
}

/**
 * One sticky: its note in the compact rich-text editor on the sticky's colour, and a menu to
 * change the colour or delete it. Typing is saved after a pause, on blur and when the card goes
 * away (stores/stickies.ts); the formatting bar shows only while the card has the focus.
 */
export function StickyCard({ slug, sticky, autoFocus }: { slug: string; sticky: Sticky; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const colour = stickyColor(sticky);
  const { id } = sticky;

  // Leaving (the modal closes, the list pages away): what was typed is saved now.
  useEffect(() => () => void flushStickyText(id), [id]);

  return (
    <article
      className={clsx("sticky-card", `sticky-${colour}`)}
      aria-label={t("stickies.editor")}
      data-testid="sticky-card"
      data-sticky-id={id}
      data-colour={colour}
    >
      <div className="sticky-card-top">
        <Menu
          width={200}
          trigger={
            <button type="button" className="sticky-card-menu-btn" aria-label={t("stickies.options")}>
              <Ellipsis size={16} aria-hidden />
            </button>
          }
        >
          <MenuLabel>{t("stickies.colour")}</MenuLabel>
          {STICKY_COLORS.map((c) => (
            <MenuItem
              key={c}
              icon={<span className={clsx("sticky-swatch", `sticky-${c}`)} aria-hidden />}
              onSelect={() => {
                if (c !== colour) void updateSticky(slug, id, { background_color: c });
              }}
            >
              <span className="sticky-colour-name">{t(`stickies.colours.${c}`)}</span>
              {c === colour ? (
                <>
                  <span className="visually-hidden"> {t("stickies.current")}</span>
                  <Check size={14} aria-hidden className="sticky-colour-check" />
                </>
              ) : null}
            </MenuItem>
          ))}
          <MenuSeparator />
          <MenuItem danger icon={<Trash2 size={14} aria-hidden />} onSelect={() => void deleteSticky(slug, id)}>
            {t("stickies.delete")}
          </MenuItem>
        </Menu>
      </div>
      <RichTextEditor
        variant="compact"
        className="sticky-editor"
        value={sticky.description_html}
        ariaLabel={t("stickies.editor")}
        placeholder={t("stickies.placeholder")}
        autoFocus={autoFocus}
        onChange={(html) => editStickyText(slug, id, html)}
        onBlur={() => void flushStickyText(id)}
      />
    </article>
  );
}
