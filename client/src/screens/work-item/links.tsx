/**
 * Links: add (URL + optional title, http(s) only), edit and delete. The form is a modal
 * (product-domain §2 "link" modal); the server's refusals (a repeated URL…) show on its fields.
 */
import { personName } from "@tideline/shared";
import { Link2, Pencil, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Modal, ModalFooter, TextInput } from "../../components/ui";
import { errorMessage, fieldErrors } from "../../lib/api";
import { addLink, deleteLink, type Link, updateLink } from "../../stores/work-item-detail";
import { isHttpUrl, linkLabel, normalizeLinkInput, relativeTime } from "./format";
import { metaNames, useDetail, useDetailContext, useProjectMeta } from "./use-detail";
import { Widget } from "./widget";

export function Links({ workItemId }: { workItemId: string }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const detail = useDetail(workItemId);
  const [editing, setEditing] = useState<Link | "new" | null>(null);
  const links = (detail?.links ?? []) as Link[];
  const meta = useProjectMeta(ctx.projectId);
  const names = metaNames(meta);

  return (
    <Widget
      title={t("workItem.links.title")}
      count={links.length}
      actions={
        ctx.canEdit ? (
          <Button variant="ghost" size="sm" onClick={() => setEditing("new")}>
            <Plus size={14} aria-hidden />
            {t("workItem.links.add")}
          </Button>
        ) : null
      }
    >
      {links.length === 0 ? <p className="wid-empty">{t("workItem.links.empty")}</p> : null}
      <ul className="wid-rows">
        {links.map((link) => {
          const label = linkLabel(link);
          const by = link.created_by_detail;
          const byName =
            (by ? personName(by) : undefined) ??
            (link.created_by ? names.member(link.created_by) : undefined) ??
            t("workItem.activity.someone");
          return (
            <li key={link.id} className="wid-row wid-link-row">
              <Link2 size={14} aria-hidden className="subtle" />
              <div className="wid-link-text">
                <a href={link.url} target="_blank" rel="noopener noreferrer nofollow" className="wid-row-name">
                  {label}
                </a>
                <span className="subtle wid-link-sub">
                  {[
                    link.title ? link.url : null,
                    t("workItem.links.addedBy", { name: byName, time: relativeTime(link.created_at) }),
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
              </div>
              {ctx.canEdit ? (
                <>
                  <button
                    type="button"
                    className="wid-icon-btn"
                    aria-label={`${t("workItem.links.edit")}: ${label}`}
                    title={t("workItem.links.edit")}
                    onClick={() => setEditing(link)}
                  >
                    <Pencil size={13} aria-hidden />
                  </button>
                  <button
                    type="button"
                    className="wid-icon-btn"
                    aria-label={`${t("workItem.links.delete")}: ${label}`}
                    title={t("workItem.links.delete")}
                    onClick={() => void deleteLink(ctx.slug, ctx.projectId, workItemId, link.id)}
                  >
                    <Trash2 size={13} aria-hidden />
                  </button>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
      <LinkModal workItemId={workItemId} link={editing} onClose={() => setEditing(null)} />
    </Widget>
  );
}

function LinkModal({
  workItemId,
  link,
  onClose,
}: {
  workItemId: string;
  link: Link | "new" | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const [url, setUrl] = useState("");
  const [title, setTitle] = useState("");
  const [errors, setErrors] = useState<{ url?: string; title?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!link) return;
    setUrl(link === "new" ? "" : link.url);
    setTitle(link === "new" ? "" : (link.title ?? ""));
    setErrors({});
  }, [link]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    const value = normalizeLinkInput(url);
    if (!value) return setErrors({ url: t("workItem.links.urlRequired") });
    if (!isHttpUrl(value)) return setErrors({ url: t("workItem.links.urlInvalid") });
    setBusy(true);
    try {
      const input = { url: value, title: title.trim() };
      if (link === "new") await addLink(ctx.slug, ctx.projectId, workItemId, input);
      else if (link) await updateLink(ctx.slug, ctx.projectId, workItemId, link.id, input);
      onClose();
    } catch (error) {
      const fields = await fieldErrors(error);
      setErrors(
        fields.url || fields.title ? { url: fields.url, title: fields.title } : { form: await errorMessage(error) },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={link !== null}
      onOpenChange={(open) => !open && onClose()}
      title={link === "new" ? t("workItem.links.add") : t("workItem.links.edit")}
      width={480}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <TextInput
          label={t("workItem.links.url")}
          placeholder="https://"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setErrors({});
          }}
          error={errors.url}
          inputMode="url"
          autoComplete="off"
          autoFocus
        />
        <TextInput
          label={t("workItem.links.titleField")}
          placeholder={t("workItem.links.titlePlaceholder")}
          value={title}
          maxLength={255}
          onChange={(e) => setTitle(e.target.value)}
          error={errors.title}
        />
        {errors.form ? (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {t("workItem.links.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {link === "new" ? t("workItem.links.add") : t("workItem.links.save")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
