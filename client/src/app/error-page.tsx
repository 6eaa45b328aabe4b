import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useOnline } from "../components/offline/use-online";
import { dropPrepaint } from "../lib/prepaint";
import { NavButton } from "../screens/workspace/components/nav-button";

/**
 * A screen's code that could not be fetched: offline before the service worker has stored the
 * app, or a tab left open across an upgrade whose old files are gone. Chromium, Firefox and
 * Safari word it differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload/i.test(
      error.message,
    )
  );
}

export function ErrorPage({ notFound: forced = false }: { notFound?: boolean }) {
  const { t } = useTranslation();
  const error = useRouteError();
  const notFound = forced || (isRouteErrorResponse(error) && error.status === 404);
  const chunk = !notFound && isChunkLoadError(error);
  const online = useOnline();
  useEffect(() => dropPrepaint(), []);
  // The missing code arrives with the network: reload then, as a person would.
  useEffect(() => {
    if (!chunk) return;
    const reload = () => window.location.reload();
    window.addEventListener("online", reload);
    return () => window.removeEventListener("online", reload);
  }, [chunk]);

  const [title, body] = notFound
    ? [t("app.error.notFoundTitle"), t("app.error.notFoundBody")]
    : chunk && !online
      ? [t("app.error.offlineTitle"), t("app.error.offlineBody")]
      : chunk
        ? [t("app.error.updatedTitle"), t("app.error.updatedBody")]
        : [t("app.error.title"), t("app.error.body")];
  return (
    <div className="full-center" style={{ padding: 24, position: "relative" }}>
      {/* Inside the workspace's layout on a phone: the menu that opens the sidebar drawer (the
          screen's own header, which holds it, is what failed). Nothing elsewhere. */}
      <div style={{ position: "absolute", top: 4, left: 16 }}>
        <NavButton />
      </div>
      <div className="stack" style={{ maxWidth: 440, textAlign: "center", alignItems: "center" }}>
        <h1>{title}</h1>
        <p className="muted">{body}</p>
        <div className="row" style={{ gap: 12, justifyContent: "center" }}>
          {notFound || (chunk && !online) ? null : (
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              {t("app.error.reload")}
            </button>
          )}
          <Link to="/">{t("app.error.home")}</Link>
        </div>
      </div>
    </div>
  );
}
