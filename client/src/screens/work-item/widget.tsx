import { ChevronRight } from "lucide-react";
import { type ReactNode, useId, useState } from "react";

/**
 * A collapsible section of the detail (sub-items, relations, links, attachments): open by
 * default (product-domain §2), a count beside the title, actions at the right.
 */
export function Widget({
  title,
  count,
  actions,
  extra,
  children,
  defaultOpen = true,
}: {
  title: string;
  count?: number;
  actions?: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section className="wid-widget" aria-label={title}>
      <div className="wid-widget-head">
        <h3 className="wid-widget-title">
          <button
            type="button"
            className="wid-widget-toggle"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen((o) => !o)}
          >
            <ChevronRight size={14} aria-hidden className="wid-widget-chevron" />
            {title}
            {count ? <span className="badge">{count}</span> : null}
          </button>
        </h3>
        {extra ? <div className="wid-widget-extra">{extra}</div> : null}
        {actions ? <div className="wid-widget-actions">{actions}</div> : null}
      </div>
      <div id={bodyId} className="wid-widget-body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
