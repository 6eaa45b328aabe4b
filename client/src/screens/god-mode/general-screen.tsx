/** "/god-mode/general/": the instance's name, shown on every sign-in screen. */
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Avatar, Button, TextInput } from "../../components/ui";
import { instanceAdmin, updateInstanceName } from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { PageHeader } from "./page-header";

export function GeneralScreen() {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const admin = useSnapshot(instanceAdmin).admin;
  const saved = snap.instance?.instance.instance_name ?? "";
  const [name, setName] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const trimmed = name.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!trimmed) {
      setError(t("godMode.general.nameRequired"));
      return;
    }
    setBusy(true);
    const errors = await updateInstanceName(trimmed);
    setBusy(false);
    if (errors) {
      setError(errors.instance_name ?? null);
      return;
    }
    setName(trimmed);
    toast.success(t("godMode.general.saved"));
  }

  return (
    <div className="gm-page">
      <PageHeader title={t("godMode.general.title")} description={t("godMode.general.description")} />
      <form className="gm-section" noValidate onSubmit={submit}>
        <TextInput
          label={t("godMode.general.instanceName")}
          name="instance_name"
          maxLength={80}
          value={name}
          error={error}
          hint={t("godMode.general.instanceNameHint")}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(null);
          }}
        />
        {admin ? (
          <div className="field">
            <span className="field-label">{t("godMode.general.adminEmail")}</span>
            <div className="gm-admin">
              <Avatar name={[admin.first_name, admin.last_name].join(" ").trim() || admin.email} size={28} />
              <div className="gm-admin-text">
                <span>{[admin.first_name, admin.last_name].join(" ").trim() || admin.email}</span>
                <span className="muted">{admin.email}</span>
              </div>
            </div>
          </div>
        ) : null}
        <div className="gm-form-actions">
          <Button type="submit" loading={busy} disabled={trimmed === saved}>
            {t("godMode.saveChanges")}
          </Button>
        </div>
      </form>
    </div>
  );
}
