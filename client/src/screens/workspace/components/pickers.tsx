import { PROJECT_COVERS, PROJECT_EMOJIS } from "@tideline/shared";
import { ImageIcon } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** A random default emoji and cover for a new project (product-domain §9). */
export function randomEmoji(): string {
  return PROJECT_EMOJIS[Math.floor(Math.random() * PROJECT_EMOJIS.length)] ?? "🚀";
}
export function randomCover(): string {
  return PROJECT_COVERS[Math.floor(Math.random() * PROJECT_COVERS.length)] ?? PROJECT_COVERS[0];
}

/** CSS background for a cover value: a preset gradient, or an image address. */
export function coverBackground(cover: string | null | undefined): string {
  if (!cover) return "var(--color-bg-muted)";
  if (cover.startsWith("linear-gradient")) return cover;
  return `center / cover no-repeat url("${encodeURI(cover)}")`;
}

/** The big emoji button on a project's cover, opening the emoji grid. */
export function EmojiPicker({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (emoji: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button type="button" className="logo-btn" aria-label={t("projects.form.chooseEmoji")} disabled={disabled}>
          {value}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="picker-pop" sideOffset={6} align="start">
          <fieldset className="emoji-grid picker-fieldset" aria-label={t("projects.form.emojis")}>
            {PROJECT_EMOJIS.map((emoji) => (
              <button
                key={emoji}
                type="button"
                className="emoji-option"
                aria-pressed={emoji === value}
                aria-label={emoji}
                onClick={() => {
                  onChange(emoji);
                  setOpen(false);
                }}
              >
                {emoji}
              </button>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** "Change cover" chip on a cover, opening the preset gradients. */
export function CoverPicker({
  value,
  onChange,
  disabled,
}: {
  value: string | null;
  onChange: (cover: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (disabled) return null;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button type="button" className="cover-chip">
          <ImageIcon size={13} aria-hidden />
          {t("projects.form.changeCover")}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="picker-pop" sideOffset={6} align="end">
          <fieldset className="cover-grid picker-fieldset" aria-label={t("projects.form.covers")}>
            {PROJECT_COVERS.map((cover, index) => (
              <button
                key={cover}
                type="button"
                className="cover-option"
                style={{ background: cover }}
                aria-pressed={cover === value}
                aria-label={t("projects.form.coverN", { n: index + 1 })}
                onClick={() => {
                  onChange(cover);
                  setOpen(false);
                }}
              />
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
