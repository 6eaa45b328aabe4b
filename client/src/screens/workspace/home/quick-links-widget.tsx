/**
 * The home's Quick links: the caller's own web addresses as cards that open in a new tab, added
 * and edited in a small modal (the server's refusal shown under its field), removed from a card's
 * menu. Empty, the widget invites adding the first one.
 */
import { ExternalLink, Link2, MoreHorizontal, Pencil, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button, Modal, ModalFooter, TextInput } from "../../../components/ui";
import {
  deleteQuickLink,
  home,
  loadQuickLinks,
  type QuickLink,
  quickLinkLabel,
  saveQuickLink,
} from "../../../stores/home";
import { LoadFailedState } from "../components/list-parts";
import { Menu, MenuItem } from "../components/menu";
import { Skeleton } from "../components/skeleton";

type Editing = { link: QuickLink | null } | null;

export function QuickLinksWidget({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const links = useSnapshot(home).bySlug[slug]?.links;
  const [editing, setEditing] = useState<Editing>(null);
  const headingId = useId();

  useEffect(() => {
    void loadQuickLinks(slug).catch(() => undefined);
  }, [slug]);

  const items = (links?.items ?? []) as QuickLink[];
  const loading = !links || (links.status === "loading" && items.length === 0);

  return (
    <section className="home-widget" aria-labelledby={headingId}>
      <div className="home-widget-head">
        <h2 className="section-title" id={headingId}>
          {t("home.widgets.quick_links")}
        </h2>
        {items.length > 0 ? (
          <Button variant="ghost" size="sm" onClick={() => setEditing({ link: null })}>
            <Plus size={14} aria-hidden />
            {t("home.quickLinks.add")}
          </Button>
        ) : null}
      </div>
      {loading ? (
        <div className="quick-links-grid" aria-hidden>
          {[0, 1, 2].map((i) => (
            <div key={i} className="quick-link-card">
              <Skeleton width={28} height={28} radius={6} />
              <div className="quick-link-text">
                <Skeleton width="70%" />
                <Skeleton width="45%" height={10} />
              </div>
            </div>
          ))}
        </div>
      ) : links.status === "error" && items.length === 0 ? (
        <div className="home-widget-empty">
          <LoadFailedState
            icon={Link2}
            title={t("home.quickLinks.loadFailed")}
            retryLabel={t("home.quickLinks.retry")}
            onRetry={() => void loadQuickLinks(slug).catch(() => undefined)}
          />
        </div>
      ) : items.length === 0 ? (
        <button type="button" className="quick-links-empty" onClick={() => setEditing({ link: null })}>
          <span className="quick-links-empty-icon" aria-hidden>
            <Link2 size={18} />
          </span>
          <span className="quick-links-empty-text">
            <span className="quick-links-empty-title">{t("home.quickLinks.emptyTitle")}</span>
            <span className="muted">{t("home.quickLinks.emptyDescription")}</span>
          </span>
          <span className="btn btn-secondary btn-sm quick-links-empty-action">
            <Plus size={14} aria-hidden />
            {t("home.quickLinks.add")}
          </span>
        </button>
      ) : (
        <ul className="quick-links-grid">
          {items.map((link) => (
            <QuickLinkCard key={link.id} slug={slug} link={link} onEdit={() => setEditing({ link })} />
          ))}
        </ul>
      )}
      <QuickLinkModal slug={slug} editing={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function QuickLinkCard({ slug, link, onEdit }: { slug: string; link: QuickLink; onEdit: () => void }) {
  const { t } = useTranslation();
  const name = quickLinkLabel(link);
  return (
    <li className="quick-link-card">
      <a
        className="quick-link-open"
        href={link.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t("home.quickLinks.newTab", { name })}
        title={link.url}
      >
        <span className="quick-link-icon" aria-hidden>
          <Link2 size={15} />
        </span>
        <span className="quick-link-text">
          <span className="quick-link-name">{name}</span>
          <span className="quick-link-host">{hostOf(link.url)}</span>
        </span>
        <ExternalLink size={13} className="quick-link-external" aria-hidden />
      </a>
      <Menu
        trigger={
          <Button
            variant="ghost"
            size="sm"
            className="icon-btn quick-link-menu"
            aria-label={t("home.quickLinks.options", { name })}
          >
            <MoreHorizontal size={15} aria-hidden />
          </Button>
        }
      >
        <MenuItem icon={<Pencil size={14} />} onSelect={onEdit}>
          {t("home.quickLinks.edit")}
        </MenuItem>
        <MenuItem icon={<Trash2 size={14} />} danger onSelect={() => void deleteQuickLink(slug, link.id)}>
          {t("home.quickLinks.remove")}
        </MenuItem>
      </Menu>
    </li>
  );
}

/** Add (editing.link null) or edit a quick link; stays open with the server's message on a refusal. */
function QuickLinkModal({ slug, editing, onClose }: { slug: string; editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState("");
  const [title, setTitle] = useState("");
  const [errors, setErrors] = useState<{ url?: string; title?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const urlRef = useRef<HTMLInputElement>(null);
  const open = editing !== null;
  const link = editing?.link ?? null;

  useEffect(() => {
    if (!open) return;
    setUrl(link?.url ?? "");
    setTitle(link?.title ?? "");
    setErrors({});
    setSaving(false);
  }, [open, link]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    const result = await saveQuickLink(slug, { url, title }, link?.id);
    setSaving(false);
    if (result.ok) {
      onClose();
      return;
    }
    const { url: urlError, title: titleError } = result.fields;
    setErrors({ url: urlError, title: titleError, form: urlError || titleError ? undefined : result.message });
    if (urlError) urlRef.current?.focus();
  }

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={link ? t("home.quickLinks.editTitle") : t("home.quickLinks.addTitle")}
      description={t("home.quickLinks.description")}
      width={440}
    >
      <form className="stack quick-link-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextInput
          ref={urlRef}
          label={t("home.quickLinks.url")}
          placeholder={t("home.quickLinks.urlPlaceholder")}
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            if (errors.url || errors.form) setErrors((x) => ({ ...x, url: undefined, form: undefined }));
          }}
          error={errors.url}
          inputMode="url"
          autoComplete="url"
          required
        />
        <TextInput
          label={t("home.quickLinks.title")}
          placeholder={t("home.quickLinks.titlePlaceholder")}
          hint={t("home.quickLinks.titleHint")}
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            if (errors.title) setErrors((x) => ({ ...x, title: undefined }));
          }}
          error={errors.title}
        />
        {errors.form ? (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <ModalFooter>
          <Button variant="ghost" onClick={onClose}>
            {t("home.quickLinks.cancel")}
          </Button>
          <Button type="submit" loading={saving} disabled={url.trim() === ""}>
            {link ? t("home.quickLinks.save") : t("home.quickLinks.create")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
