import { ORGANIZATION_SIZES, RESERVED_WORKSPACE_SLUGS, slugify, WORKSPACE_SLUG_PATTERN } from "@tideline/shared";
import { CircleCheck, TriangleAlert } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Banner, Button, Spinner, TextInput } from "../../components/ui";
import { errorMessage, fieldErrors } from "../../lib/api";
import { checkWorkspaceSlug, createWorkspace, type Workspace } from "../../stores/workspaces";
import { focusOnMount } from "../workspace/components/focus";
import { SelectField } from "../workspace/components/select-field";

type SlugStatus = "idle" | "checking" | "available" | "taken" | "reserved" | "invalid";
type Errors = Partial<Record<"name" | "slug" | "organization_size" | "form", string>>;

/** Is the slug usable? Reserved and malformed ones are known without asking the server. */
function useSlugStatus(slug: string): SlugStatus {
  const [status, setStatus] = useState<SlugStatus>("idle");
  useEffect(() => {
    if (!slug) {
      setStatus("idle");
      return;
    }
    if (!WORKSPACE_SLUG_PATTERN.test(slug)) {
      setStatus("invalid");
      return;
    }
    if (RESERVED_WORKSPACE_SLUGS.has(slug)) {
      setStatus("reserved");
      return;
    }
    let alive = true;
    setStatus("checking");
    const timer = window.setTimeout(() => {
      checkWorkspaceSlug(slug)
        .then((free) => alive && setStatus(free ? "available" : "taken"))
        .catch(() => alive && setStatus("idle"));
    }, 350);
    return () => {
      alive = false;
      window.clearTimeout(timer);
    };
  }, [slug]);
  return status;
}

/** Name, URL (derived from the name, checked live) and organization size; creates the workspace. */
export function WorkspaceForm({
  onCreated,
  submitLabel,
}: {
  onCreated: (ws: Workspace) => void;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const slugTouched = useRef(false);
  const [size, setSize] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const status = useSlugStatus(slug);
  const urlId = useId();
  const host = window.location.host;

  const slugMessage: Record<SlugStatus, string | null> = {
    idle: null,
    checking: t("onboarding.workspace.checking"),
    available: t("onboarding.workspace.available"),
    taken: t("onboarding.workspace.taken"),
    reserved: t("onboarding.workspace.reserved"),
    invalid: t("onboarding.workspace.invalidSlug"),
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const next: Errors = {};
    if (!name.trim()) next.name = t("onboarding.workspace.nameRequired");
    if (!slug) next.slug = t("onboarding.workspace.slugRequired");
    else if (status === "reserved" || status === "taken" || status === "invalid") next.slug = slugMessage[status] ?? "";
    if (!size) next.organization_size = t("onboarding.workspace.sizeRequired");
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      const ws = await createWorkspace({ name: name.trim(), slug, organization_size: size });
      onCreated(ws);
    } catch (error) {
      const fields = await fieldErrors(error);
      const known = ["name", "slug", "organization_size"].some((k) => fields[k]);
      setErrors({
        name: fields.name,
        slug: fields.slug,
        organization_size: fields.organization_size,
        form: known ? undefined : await errorMessage(error),
      });
      setBusy(false);
    }
  }

  const slugError = errors.slug;
  const liveProblem = status === "reserved" || status === "taken" || status === "invalid";
  const hintId = `${urlId}-hint`;

  return (
    <form className="stack ob-form" onSubmit={submit} noValidate>
      {errors.form ? <Banner>{errors.form}</Banner> : null}
      <TextInput
        ref={focusOnMount}
        label={t("onboarding.workspace.name")}
        placeholder={t("onboarding.workspace.namePlaceholder")}
        value={name}
        maxLength={80}
        error={errors.name}
        onChange={(e) => {
          setName(e.target.value);
          setErrors((x) => ({ ...x, name: undefined, form: undefined }));
          if (!slugTouched.current) setSlug(slugify(e.target.value));
        }}
      />
      <div className="field">
        <label className="field-label" htmlFor={urlId}>
          {t("onboarding.workspace.url")}
        </label>
        <div className="url-field" aria-invalid={slugError || liveProblem ? true : undefined}>
          <span className="url-prefix" aria-hidden>
            {host}/
          </span>
          <input
            id={urlId}
            className="input"
            value={slug}
            maxLength={48}
            placeholder="acme"
            autoCapitalize="off"
            spellCheck={false}
            aria-invalid={slugError || liveProblem ? true : undefined}
            aria-describedby={hintId}
            onChange={(e) => {
              slugTouched.current = true;
              setSlug(e.target.value.toLowerCase().replace(/\s+/g, "-"));
              setErrors((x) => ({ ...x, slug: undefined, form: undefined }));
            }}
          />
        </div>
        <span
          id={hintId}
          className={
            slugError || liveProblem ? "field-error" : status === "available" ? "field-hint text-success" : "field-hint"
          }
          role={slugError ? "alert" : undefined}
          aria-live="polite"
        >
          {slugError ? (
            slugError
          ) : status === "checking" ? (
            <span className="identifier-status">
              <Spinner label={slugMessage.checking ?? ""} /> {slugMessage.checking}
            </span>
          ) : status === "available" ? (
            <span className="identifier-status">
              <CircleCheck size={12} aria-hidden /> {slugMessage.available}
            </span>
          ) : liveProblem ? (
            <span className="identifier-status">
              <TriangleAlert size={12} aria-hidden /> {slugMessage[status]}
            </span>
          ) : (
            t("onboarding.workspace.urlHint")
          )}
        </span>
      </div>
      <SelectField
        label={t("onboarding.workspace.size")}
        value={size}
        placeholder={t("onboarding.workspace.sizePlaceholder")}
        options={ORGANIZATION_SIZES.map((s) => ({ value: s, label: s }))}
        error={errors.organization_size}
        onValueChange={(v) => {
          setSize(v);
          setErrors((x) => ({ ...x, organization_size: undefined }));
        }}
      />
      <Button type="submit" size="lg" block loading={busy}>
        {submitLabel ?? t("onboarding.workspace.create")}
      </Button>
    </form>
  );
}
