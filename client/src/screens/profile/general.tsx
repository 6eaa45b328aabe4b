import { UserX } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Avatar, Button, TextInput } from "../../components/ui";
import { deactivateAccount, updateMe } from "../../stores/profile";
import { session } from "../../stores/session";
import { ConfirmModal } from "../workspace/components/confirm-modal";

/** /profile/: names (e-mail read-only) and account deactivation. */
export function ProfileGeneral() {
  const { t, i18n } = useTranslation();
  const user = useSnapshot(session).user;
  const [first, setFirst] = useState(user?.first_name ?? "");
  const [last, setLast] = useState(user?.last_name ?? "");
  const [display, setDisplay] = useState(user?.display_name ?? "");
  const [errors, setErrors] = useState<{ first?: string; display?: string }>({});
  const [saving, setSaving] = useState(false);
  const [deactivating, setDeactivating] = useState(false);

  useEffect(() => {
    document.title = `${t("profile.general.title")} · Tideline`;
  }, [t]);

  if (!user) return null;
  const dirty = first !== user.first_name || last !== user.last_name || display !== user.display_name;
  const name = `${first} ${last}`.trim() || display || user.email;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const next: typeof errors = {};
    if (!first.trim()) next.first = t("onboarding.profile.firstRequired");
    if (!display.trim()) next.display = t("profile.general.displayRequired");
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setSaving(true);
    const ok = await updateMe({ first_name: first.trim(), last_name: last.trim(), display_name: display.trim() });
    setSaving(false);
    if (ok) toast.success(t("profile.general.saved"));
  }

  return (
    <>
      <div className="settings-heading">
        <div>
          <h1>{t("profile.general.title")}</h1>
          <p className="muted">{t("profile.general.hint")}</p>
        </div>
      </div>
      <div className="row" style={{ "--gap": "14px", marginBottom: 24 } as React.CSSProperties}>
        <Avatar name={name} src={user.avatar_url} size={56} />
        <div className="stack" style={{ "--gap": "2px" } as React.CSSProperties}>
          <strong style={{ fontSize: 16 }}>{name}</strong>
          <span className="muted">
            {t("profile.general.memberSince", {
              date: new Intl.DateTimeFormat(i18n.language, { month: "long", year: "numeric" }).format(
                new Date(user.date_joined),
              ),
            })}
          </span>
        </div>
      </div>
      <form className="settings-section" onSubmit={submit} noValidate>
        <div className="form-row-2">
          <TextInput
            label={t("onboarding.profile.firstName")}
            value={first}
            autoComplete="given-name"
            maxLength={255}
            error={errors.first}
            onChange={(e) => {
              setFirst(e.target.value);
              setErrors((x) => ({ ...x, first: undefined }));
            }}
          />
          <TextInput
            label={t("onboarding.profile.lastName")}
            value={last}
            autoComplete="family-name"
            maxLength={255}
            onChange={(e) => setLast(e.target.value)}
          />
        </div>
        <div className="form-row-2">
          <TextInput
            label={t("onboarding.profile.displayName")}
            value={display}
            maxLength={255}
            error={errors.display}
            hint={t("onboarding.profile.displayNameHint")}
            onChange={(e) => {
              setDisplay(e.target.value);
              setErrors((x) => ({ ...x, display: undefined }));
            }}
          />
          <TextInput
            label={t("profile.general.email")}
            value={user.email}
            readOnly
            disabled
            hint={t("profile.general.emailHint")}
          />
        </div>
        <div className="settings-actions">
          <Button type="submit" loading={saving} disabled={!dirty}>
            {t("profile.general.save")}
          </Button>
        </div>
      </form>

      <section className="settings-section" aria-labelledby="profile-danger">
        <h2 id="profile-danger" className="section-title">
          {t("projects.settings.dangerZone")}
        </h2>
        <div className="danger-zone">
          <div className="danger-row">
            <div>
              <span className="danger-row-title">{t("profile.general.deactivate")}</span>
              <span className="danger-row-hint">{t("profile.general.deactivateHint")}</span>
            </div>
            <Button variant="danger" onClick={() => setDeactivating(true)}>
              <UserX size={14} aria-hidden />
              {t("profile.general.deactivate")}
            </Button>
          </div>
        </div>
      </section>

      <ConfirmModal
        open={deactivating}
        onOpenChange={setDeactivating}
        title={t("profile.general.deactivateTitle")}
        description={t("profile.general.deactivateDescription")}
        typeToConfirm={user.email}
        confirmLabel={t("profile.general.deactivate")}
        onConfirm={async () => {
          if (!(await deactivateAccount())) setDeactivating(false);
        }}
      />
    </>
  );
}
