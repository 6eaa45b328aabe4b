/**
 * Parts the project's list screens (cycles, modules, views, and their archived lists) share:
 * the empty states for a failed load and for a search that matches nothing, the search box, an
 * archived row's Restore and delete buttons, and the crumb back to the list a screen belongs to.
 */
import { ArchiveRestore, type LucideIcon, RefreshCw, Search, SearchX, Trash2 } from "lucide-react";
import { type Ref, useState } from "react";
import { Link } from "react-router";
import { Button, EmptyState } from "../../../components/ui";

/** The list could not load and nothing is cached: not "nothing here", so say so and offer a retry. */
export function LoadFailedState({
  icon,
  title,
  retryLabel,
  onRetry,
}: {
  icon: LucideIcon;
  title: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      action={
        <Button variant="secondary" onClick={onRetry}>
          <RefreshCw size={14} aria-hidden />
          {retryLabel}
        </Button>
      }
    />
  );
}

/** Nothing matches the search (or filters): say so, with the way to clear them. */
export function NoMatchState({
  title,
  description,
  clearLabel,
  onClear,
}: {
  title: string;
  description?: string;
  clearLabel: string;
  onClear: () => void;
}) {
  return (
    <EmptyState
      icon={SearchX}
      title={title}
      description={description}
      action={
        <Button variant="secondary" onClick={onClear}>
          {clearLabel}
        </Button>
      }
    />
  );
}

/** A list screen's search box; `className` places it in the screen's toolbar. */
export function ListSearch({
  className,
  placeholder,
  label,
  value,
  onChange,
  inputRef,
}: {
  className: string;
  placeholder: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <div className={`search-input ${className}`}>
      <Search size={14} aria-hidden />
      <input
        className="input"
        type="search"
        placeholder={placeholder}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        ref={inputRef}
      />
    </div>
  );
}

/** An archived row's Restore button, busy while the call runs. */
export function RestoreButton({ label, onRestore }: { label: string; onRestore: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await onRestore();
        } finally {
          setBusy(false);
        }
      }}
    >
      <ArchiveRestore size={14} aria-hidden />
      {label}
    </Button>
  );
}

/** An archived row's delete button: a bin icon named after the row (`label`), `title` as its tooltip. */
export function RowDeleteButton({
  className,
  label,
  title,
  onClick,
}: {
  className: string;
  label: string;
  title: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className={className} aria-label={label} title={title} onClick={onClick}>
      <Trash2 size={14} aria-hidden />
    </button>
  );
}

/** The crumb back to the list a screen belongs to ("Modules", "Views"), after the project's crumbs. */
export function SectionCrumb({ to, icon: Icon, label }: { to: string; icon: LucideIcon; label: string }) {
  return (
    <Link className="crumb" to={to}>
      <Icon size={14} aria-hidden />
      {label}
    </Link>
  );
}
