import { isHexColor } from "@tideline/shared";
import { Check } from "lucide-react";
import { Popover } from "radix-ui";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import "./settings-lists.css";

/**
 * Colours offered for states and labels. These are data (stored on the state or label and
 * drawn as its dot), not interface colours, so they are the same in every theme.
 */
export const SETTINGS_PALETTE = [
  "#60646C",
  "#9AA4BC",
  "#EF4444",
  "#F97316",
  "#F59E0B",
  "#EAB308",
  "#A16207",
  "#84CC16",
  "#46A758",
  "#10B981",
  "#14B8A6",
  "#06B6D4",
  "#3B82F6",
  "#6366F1",
  "#8B5CF6",
  "#A855F7",
  "#EC4899",
  "#F43F5E",
] as const;

/** A random palette colour for a new label (states take their group's usual colour). */
export function randomPaletteColor(): string {
  return SETTINGS_PALETTE[Math.floor(Math.random() * SETTINGS_PALETTE.length)] ?? SETTINGS_PALETTE[0];
}

/** A round colour swatch opening a palette and a hex field. */
export function ColorPicker({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (color: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [hex, setHex] = useState(value.replace(/^#/, ""));
  const inputId = useId();
  useEffect(() => setHex(value.replace(/^#/, "")), [value]);
  const typed = `#${hex.trim()}`;
  const invalid = hex.trim() !== "" && !isHexColor(typed);

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          type="button"
          className="color-trigger"
          aria-label={t("stateSettings.color.choose", { color: value })}
          title={value}
          disabled={disabled}
        >
          <span className="color-dot color-dot-lg" style={{ background: value }} />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="picker-pop color-pop" sideOffset={6} align="start">
          <fieldset className="color-grid picker-fieldset" aria-label={t("stateSettings.color.palette")}>
            {SETTINGS_PALETTE.map((color) => {
              const selected = color.toLowerCase() === value.toLowerCase();
              return (
                <button
                  key={color}
                  type="button"
                  className="color-option"
                  style={{ background: color }}
                  aria-pressed={selected}
                  aria-label={color}
                  title={color}
                  onClick={() => {
                    onChange(color);
                    setOpen(false);
                  }}
                >
                  {selected ? <Check size={12} aria-hidden /> : null}
                </button>
              );
            })}
          </fieldset>
          <label className="color-hex" htmlFor={inputId}>
            <span className="color-dot" style={{ background: isHexColor(typed) ? typed : value }} />
            <span className="color-hex-hash">#</span>
            <input
              id={inputId}
              className="input input-compact"
              value={hex}
              maxLength={7}
              spellCheck={false}
              aria-label={t("stateSettings.color.hex")}
              aria-invalid={invalid || undefined}
              onChange={(e) => {
                const next = e.target.value.replace(/^#/, "");
                setHex(next);
                if (isHexColor(`#${next.trim()}`)) onChange(`#${next.trim()}`.toUpperCase());
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  setOpen(false);
                }
              }}
            />
          </label>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The coloured dot drawn for a state or label. */
export function ColorDot({ color, size = 10 }: { color: string; size?: number }) {
  return <span className="color-dot" style={{ background: color, width: size, height: size }} aria-hidden />;
}
