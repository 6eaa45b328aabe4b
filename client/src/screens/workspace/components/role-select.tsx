import { ROLE } from "@tideline/shared";
import { useTranslation } from "react-i18next";
import { Select } from "../../../components/ui";
import "./components.css";

const ORDER = [ROLE.admin, ROLE.member, ROLE.guest] as const;

/** The name of a role for people ("Admin", "Member", "Guest"). */
export function useRoleLabel() {
  const { t } = useTranslation();
  return (role: number) =>
    role >= ROLE.admin
      ? t("workspace.roles.admin")
      : role >= ROLE.member
        ? t("workspace.roles.member")
        : t("workspace.roles.guest");
}

type Props = {
  value: number;
  onChange: (role: number) => void;
  /** Highest role that may be chosen (nobody grants above their own role). */
  max?: number;
  disabled?: boolean;
  label: string;
  /** Show the role descriptions in the options. */
  describe?: boolean;
};

/** A compact role picker for member rows and invitation rows. */
export function RoleSelect({ value, onChange, max = ROLE.admin, disabled, label, describe }: Props) {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  const description: Record<number, string> = {
    [ROLE.admin]: t("workspace.roles.adminHint"),
    [ROLE.member]: t("workspace.roles.memberHint"),
    [ROLE.guest]: t("workspace.roles.guestHint"),
  };
  return (
    <Select
      className="role-select"
      compact
      label={label}
      value={String(value)}
      disabled={disabled}
      onValueChange={(v) => onChange(Number(v))}
      options={ORDER.map((role) => ({
        value: String(role),
        label: roleLabel(role),
        hint: describe ? description[role] : undefined,
        disabled: role > max,
      }))}
      align="end"
    />
  );
}
