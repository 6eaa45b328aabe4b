import { Dialog } from "radix-ui";
import type { ReactNode } from "react";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  width?: number;
  /** Added to the dialog's box (e.g. a screen-sized modal on phones). */
  className?: string;
  /** When the dialog opens: call `event.preventDefault()` and focus another control than the first. */
  onOpenAutoFocus?: (event: Event) => void;
};

/** Accessible modal dialog (Radix): focus trap, Escape to close, labelled by its title. */
export function Modal({ open, onOpenChange, title, description, children, width, className, onOpenAutoFocus }: Props) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className={className ? `dialog-content ${className}` : "dialog-content"}
          style={width ? { width: `min(${width}px, calc(100vw - 32px))` } : undefined}
          onOpenAutoFocus={onOpenAutoFocus}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="muted" style={{ marginBottom: 16 }}>
              {description}
            </Dialog.Description>
          ) : (
            <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function ModalFooter({ children }: { children: ReactNode }) {
  return <div className="dialog-footer">{children}</div>;
}
