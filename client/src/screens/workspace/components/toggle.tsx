import { Switch } from "radix-ui";
import "./components.css";

type Props = {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
};

/** An on/off switch (Radix): Space toggles, the label names it for screen readers. */
export function Toggle({ checked, onCheckedChange, label, disabled }: Props) {
  return (
    <Switch.Root
      className="toggle"
      checked={checked}
      onCheckedChange={onCheckedChange}
      aria-label={label}
      disabled={disabled}
    >
      <Switch.Thumb className="toggle-thumb" />
    </Switch.Root>
  );
}
