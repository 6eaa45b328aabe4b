/**
 * Pieces every settings screen (workspace and project) is made of: the heading, the
 * danger-zone rows, a row's "…" actions menu and edit button, the member rows and their search
 * box, a list of things the screen manages (loading, failed, empty, rows) with its add button,
 * a secret shown once with its copy button, and the mapping of a refused save onto the form's fields. One place, so the screens
 * look and read the same.
 */
import { Check, Copy, Ellipsis, type LucideIcon, Pencil, Plus, Search } from "lucide-react";
import { type CSSProperties, type ReactNode, type Ref, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Avatar, Button, EmptyState } from "../../../components/ui";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { Menu } from "./menu";
import { SkeletonRows } from "./skeleton";

/** "Add …": the list's main action, in the heading and in the empty state. */
export function AddButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button onClick={onClick}>
      <Plus size={14} aria-hidden />
      {label}
    </Button>
  );
}

/**
 * The things a settings screen manages (webhooks, API tokens…): placeholder rows while they
 * load, a line when they could not be read, the empty state with the way to add the first, or
 * the rows.
 */
export function SettingsList<T extends { id: string }>({
  items,
  failed,
  label,
  className,
  empty,
  row,
}: {
  items: readonly T[] | undefined;
  failed: boolean;
  /** Names the list for screen readers. */
  label: string;
  className?: string;
  empty: { icon: LucideIcon; title: string; description: string; action: ReactNode };
  row: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="settings-section">
      {items === undefined ? (
        failed ? (
          <p className="muted">{t("workspace.loadFailed")}</p>
        ) : (
          <div className="member-list">
            <SkeletonRows count={2} height={60} />
          </div>
        )
      ) : items.length === 0 ? (
        <div className="member-list">
          <EmptyState icon={empty.icon} title={empty.title} description={empty.description} action={empty.action} />
        </div>
      ) : (
        <ul className={className ? `member-list ${className}` : "member-list"} aria-label={label}>
          {items.map(row)}
        </ul>
      )}
    </section>
  );
}

/**
 * A secret the server shows this once (a webhook's signing key, an API token): the hint, the
 * value selectable in full, Copy, and whatever else the screen offers beside it (a download).
 */
export function SecretOnce({
  value,
  hint,
  testId,
  labels,
  children,
}: {
  value: string;
  hint: string;
  testId: string;
  labels: { copy: string; copied: string; copyFailed: string; copiedShort?: string };
  children?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(labels.copied);
    } catch {
      toast.error(labels.copyFailed);
    }
  }
  return (
    <div className="secret-once">
      <p className="muted">{hint}</p>
      <div className="secret-once-row">
        <code className="secret-once-value" data-testid={testId}>
          {value}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          {copied && labels.copiedShort ? labels.copiedShort : labels.copy}
        </Button>
        {children}
      </div>
    </div>
  );
}

/** The screen's title and hint, with its main actions on the right. */
export function SettingsHeading({ title, hint, children }: { title: string; hint: ReactNode; children?: ReactNode }) {
  return (
    <div className="settings-heading">
      <div>
        <h1>{title}</h1>
        <p className="muted">{hint}</p>
      </div>
      {children}
    </div>
  );
}

/** One action of the danger zone: what it does, and its button. */
export function DangerRow({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <div className="danger-row">
      <div>
        <span className="danger-row-title">{title}</span>
        <span className="danger-row-hint">{hint}</span>
      </div>
      {children}
    </div>
  );
}

/** A row's "…" button and the menu it opens; `label` names the row ("Actions for Ada"). */
export function RowActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Menu
      trigger={
        <Button variant="ghost" size="sm" className="icon-btn" aria-label={label}>
          <Ellipsis size={14} aria-hidden />
        </Button>
      }
    >
      {children}
    </Menu>
  );
}

/** A row's pencil button: `label` names what is edited, `title` is the short tooltip. */
export function RowEditButton({ label, title, onClick }: { label: string; title: string; onClick: () => void }) {
  return (
    <Button variant="ghost" size="sm" className="icon-btn" aria-label={label} title={title} onClick={onClick}>
      <Pencil size={14} aria-hidden />
    </Button>
  );
}

/** The search box above a member list (and in the add-members dialog). */
export function MemberSearch({
  label,
  value,
  onChange,
  inputRef,
  style,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  style?: CSSProperties;
}) {
  return (
    <div className="search-input" style={style}>
      <Search size={14} aria-hidden />
      <input
        className="input"
        type="search"
        placeholder={label}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        ref={inputRef}
      />
    </div>
  );
}

/** Those of `list` whose name or email contains the query (all of them when it is blank). */
export function filterPeople<T>(
  list: readonly T[] | undefined,
  query: string,
  person: (item: T) => { name: string; email: string },
): readonly T[] | undefined {
  const q = query.trim().toLowerCase();
  if (!list || !q) return list;
  return list.filter((item) => {
    const { name, email } = person(item);
    return name.toLowerCase().includes(q) || email.toLowerCase().includes(q);
  });
}

/**
 * A person in a member list: avatar, name (with "You" for oneself), a second line, their role
 * (a picker or plain text) and the actions menu, or an empty slot of the same width so the
 * roles line up.
 */
export function MemberRow({
  avatarName,
  avatarUrl,
  name,
  youBadge,
  detail,
  role,
  actions,
}: {
  avatarName: string;
  avatarUrl?: string | null;
  name: ReactNode;
  /** The "You" badge, shown on one's own row. */
  youBadge?: string | null;
  detail: ReactNode;
  role: ReactNode;
  actions: ReactNode;
}) {
  return (
    <div className="member-row">
      <Avatar name={avatarName} src={avatarUrl} size={30} />
      <div className="member-info">
        <span className="member-name">
          {name}
          {youBadge ? <span className="badge you-badge">{youBadge}</span> : null}
        </span>
        <span className="member-email">{detail}</span>
      </div>
      {role}
      {actions ?? <span style={{ width: 26 }} />}
    </div>
  );
}

/**
 * A refused save mapped onto the form: the server's field errors under their fields, and any
 * other refusal as the form's message.
 */
export async function saveErrors<K extends string>(
  error: unknown,
  fields: readonly K[],
): Promise<Partial<Record<K | "form", string>>> {
  const found = await fieldErrors(error);
  const errors: Partial<Record<K | "form", string>> = {};
  for (const field of fields) errors[field] = found[field];
  if (!fields.some((field) => found[field])) errors.form = await errorMessage(error);
  return errors;
}
