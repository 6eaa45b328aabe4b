/**
 * New page (the spec's "project-page" form: name, public or private). The name may stay empty
 * (the page is then "Untitled"); on success the new page opens. With `parent`, the page is
 * created as its sub-page (starting with the parent's access).
 */
import { PAGE_ACCESS, PAGE_NAME_MAX, type PageAccess } from "@tideline/shared";
import clsx from "clsx";
import { CornerDownRight, Globe, Lock } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Button, Modal, ModalFooter, TextInput } from "../../components/ui";
import { createPage, type Page } from "../../stores/pages";
import { focusOnMount } from "../workspace/components/focus";
import { pageTitle } from "./page-logic";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  /** The tab the list shows: Private starts the form on private. */
  initialAccess: PageAccess;
  /** Create a sub-page of this page. */
  parent?: Pick<Page, "id" | "name"> | null;
  onCreated?: (page: Page) => void;
};

export function CreatePageModal({ open, onOpenChange, slug, projectId, initialAccess, parent, onCreated }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [access, setAccess] = useState<PageAccess>(initialAccess);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setName("");
      setAccess(initialAccess);
      setBusy(false);
    }
  }, [open, initialAccess]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const page = await createPage(slug, projectId, { name, access, parent: parent?.id ?? null });
    setBusy(false);
    if (!page) return;
    onCreated?.(page);
    onOpenChange(false);
    navigate(`/${slug}/projects/${projectId}/pages/${page.id}/`);
  }

  const options = [
    {
      value: PAGE_ACCESS.public,
      icon: Globe,
      label: t("pages.createModal.public"),
      hint: t("pages.createModal.publicHint"),
    },
    {
      value: PAGE_ACCESS.private,
      icon: Lock,
      label: t("pages.createModal.private"),
      hint: t("pages.createModal.privateHint"),
    },
  ];

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t(parent ? "pages.createModal.subPageTitle" : "pages.createModal.title")}
      width={480}
    >
      <form className="stack" onSubmit={submit}>
        {parent ? (
          <p className="pg-create-parent">
            <CornerDownRight size={14} aria-hidden />
            {t("pages.createModal.subPageOf", { name: pageTitle(parent.name) })}
          </p>
        ) : null}
        <TextInput
          label={t("pages.createModal.name")}
          placeholder={t("pages.createModal.namePlaceholder")}
          value={name}
          maxLength={PAGE_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          autoComplete="off"
          ref={focusOnMount}
        />
        <fieldset className="pg-access-choice">
          <legend className="field-label">{t("pages.createModal.access")}</legend>
          {options.map(({ value, icon: Icon, label, hint }) => (
            <label key={value} className={clsx("pg-access-option", access === value && "is-on")}>
              <input
                type="radio"
                name="page-access"
                value={value}
                checked={access === value}
                onChange={() => setAccess(value)}
              />
              <Icon size={16} aria-hidden className="pg-access-icon" />
              <span className="pg-access-text">
                <span className="pg-access-label">{label}</span>
                <span className="pg-access-hint">{hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("pages.createModal.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {t("pages.createModal.submit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
