import { ROLE } from "@tideline/shared";
import { Plus, X } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/ui";
import { focusOnMount } from "./focus";
import { type InviteRow, newInviteRow } from "./invite-validation";
import { RoleSelect } from "./role-select";
import "./components.css";

type Props = {
  rows: InviteRow[];
  onChange: (rows: InviteRow[]) => void;
  /** Highest role the inviter may give (their own). */
  maxRole: number;
  focusFirst?: boolean;
};

/** E-mail + role rows, with "Add another" and a remove button per row. */
export function InviteRows({ rows, onChange, maxRole, focusFirst }: Props) {
  const { t } = useTranslation();
  const baseId = useId();
  const update = (key: number, patch: Partial<InviteRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch, error: undefined } : r)));
  return (
    <div className="invite-rows">
      <div className="invite-row invite-row-head" aria-hidden>
        <span className="field-label">{t("workspace.invite.email")}</span>
        <span className="field-label">{t("workspace.invite.role")}</span>
        <span />
      </div>
      {rows.map((row, index) => {
        const id = `${baseId}-${row.key}`;
        return (
          <div key={row.key} className="invite-row-wrap">
            <div className="invite-row">
              <label className="visually-hidden" htmlFor={id}>
                {t("workspace.invite.email")}
              </label>
              <input
                id={id}
                className="input"
                type="email"
                placeholder={t("workspace.invite.emailPlaceholder")}
                value={row.email}
                ref={focusFirst && index === 0 ? focusOnMount : undefined}
                aria-invalid={row.error ? true : undefined}
                aria-describedby={row.error ? `${id}-error` : undefined}
                onChange={(e) => update(row.key, { email: e.target.value })}
              />
              <RoleSelect
                label={t("workspace.invite.role")}
                value={row.role}
                max={maxRole}
                onChange={(role) => update(row.key, { role })}
              />
              <Button
                variant="ghost"
                size="sm"
                className="icon-btn"
                aria-label={t("workspace.invite.removeRow")}
                disabled={rows.length === 1}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              >
                <X size={14} />
              </Button>
            </div>
            {row.error ? (
              <span className="field-error" id={`${id}-error`} role="alert">
                {row.error}
              </span>
            ) : null}
          </div>
        );
      })}
      <div>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onChange([...rows, newInviteRow(Math.min(ROLE.member, maxRole))])}
          disabled={rows.length >= 20}
        >
          <Plus size={14} /> {t("workspace.invite.addAnother")}
        </Button>
      </div>
    </div>
  );
}
