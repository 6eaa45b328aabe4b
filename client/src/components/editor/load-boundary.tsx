/**
 * The editor's code arrives in its own chunk (index.tsx). When that chunk can't be fetched —
 * offline before the service worker has stored the app, or a page left open across an upgrade
 * whose old chunk is gone — React.lazy throws, and with nothing to catch it the router replaced
 * the whole screen with its error page: a work item could not even be created offline. This
 * boundary keeps the failure to the editor's own box, says why, and tries again on a click or
 * as soon as the browser is back online.
 */
import { Component, type ComponentType, type LazyExoticComponent, lazy, type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useOnline } from "../offline/use-online";

/**
 * A lazy component that can start over: React.lazy keeps a failed import's rejection forever,
 * so a retry needs a fresh one. Made once per module, so an editor mounted after the chunk has
 * loaded renders at once (a lazy made per mount would suspend for a tick each time).
 */
export function reloadableLazy<P>(load: () => Promise<{ default: ComponentType<P> }>): {
  current: () => LazyExoticComponent<ComponentType<P>>;
  reset: () => void;
} {
  let component = lazy(load);
  return {
    current: () => component,
    reset: () => {
      component = lazy(load);
    },
  };
}

/**
 * `children` is called at each render, so after a retry it reads the fresh lazy component (an
 * element made by the parent beforehand would still hold the failed one).
 */
type Props = { children: () => ReactNode; onRetry: () => void; className?: string };

export class EditorLoadBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  retry = (): void => {
    this.props.onRetry();
    this.setState({ failed: false });
  };

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children();
    return <EditorUnavailable onRetry={this.retry} className={this.props.className} />;
  }
}

function EditorUnavailable({ onRetry, className }: { onRetry: () => void; className?: string }) {
  const { t } = useTranslation();
  const offline = !useOnline();
  useEffect(() => {
    // Back online: the chunk can be fetched now.
    window.addEventListener("online", onRetry);
    return () => window.removeEventListener("online", onRetry);
  }, [onRetry]);
  return (
    <div className={`rte rte-unavailable ${className ?? ""}`} role="status">
      <p>{offline ? t("workItem.editor.unavailableOffline") : t("workItem.editor.unavailable")}</p>
      {offline ? null : (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
          {t("workItem.editor.retry")}
        </button>
      )}
    </div>
  );
}
