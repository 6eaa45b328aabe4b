/**
 * What stands in for an editor while its chunk or its live document loads. A full editor's
 * placeholder has the same toolbar row (as many tool-sized boxes, wrapping the same way on a
 * narrow screen) and the same content height, so what sits below — a work item's properties —
 * does not move when the editor arrives: a click aimed at it lands where it was aimed. Given the
 * stored HTML, it shows it read-only in the editor's typography meanwhile, so the text is there at
 * once and takes the height the editor will take.
 */
import { useTranslation } from "react-i18next";

/** The full toolbar's groups of tools (toolbar.tsx), the image button counted when images can be added. */
function toolGroups(withImage: boolean): number[] {
  return [3, 5, 3, 3 + (withImage ? 1 : 0) + 1];
}

export function EditorPlaceholder({
  variant = "full",
  editable = true,
  withImage = false,
  html,
  className,
}: {
  variant?: "full" | "compact";
  editable?: boolean;
  withImage?: boolean;
  /** Stored, server-sanitised HTML to show until the editor is ready. */
  html?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={`rte rte-${variant} rte-loading ${className ?? ""}`}
      role="status"
      aria-busy="true"
      aria-label={t("workItem.editor.loading")}
    >
      {variant === "full" && editable ? (
        <div className="rte-toolbar" aria-hidden>
          {toolGroups(withImage).map((count, group) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed boxes that never reorder
            <span key={group} className="rte-toolbar-group">
              {group > 0 ? <span className="rte-sep" /> : null}
              {Array.from({ length: count }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed boxes that never reorder
                <span key={i} className="rte-tool rte-tool-placeholder" />
              ))}
            </span>
          ))}
        </div>
      ) : null}
      {variant !== "full" ? null : html ? (
        // The HTML was sanitised by the server's allow-list before it was stored.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (content/sanitize.ts)
        <div className="rte-content rte-view" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <div className="rte-content rte-content-placeholder" />
      )}
    </div>
  );
}
