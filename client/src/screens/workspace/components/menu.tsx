import { Check } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";
import "./components.css";

/** A dropdown menu (Radix): arrow keys move, Enter picks, Escape closes. */
export function Menu({
  trigger,
  children,
  align = "end",
  side,
  width,
}: {
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "end" | "center";
  side?: "top" | "bottom" | "left" | "right";
  width?: number;
}) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu-content"
          align={align}
          side={side}
          sideOffset={4}
          style={width ? { width } : undefined}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function MenuItem({
  children,
  onSelect,
  danger,
  disabled,
  icon,
}: {
  children: ReactNode;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
  icon?: ReactNode;
}) {
  return (
    <DropdownMenu.Item
      className={danger ? "menu-item menu-item-danger" : "menu-item"}
      onSelect={onSelect}
      disabled={disabled}
    >
      {icon}
      {children}
    </DropdownMenu.Item>
  );
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="menu-separator" />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="menu-label">{children}</DropdownMenu.Label>;
}

/**
 * A ticked option inside a filter menu. Picking it keeps the menu open: several filters are
 * usually set together.
 */
export function CheckMenuItem({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.CheckboxItem
      className="menu-item menu-check-item"
      checked={checked}
      onCheckedChange={(on) => onChange(on === true)}
      onSelect={(e) => e.preventDefault()}
    >
      <span className="menu-check" aria-hidden>
        {checked ? <Check size={13} /> : null}
      </span>
      {children}
    </DropdownMenu.CheckboxItem>
  );
}
