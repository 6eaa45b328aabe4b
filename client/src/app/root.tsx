import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { Toaster } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, ScreenLoader } from "../components/ui";
import { checkPrepaint } from "../lib/prepaint";
import { loadSession, session, startSession } from "../stores/session";
import { theme } from "../stores/theme";

/** Loads who-is-here once, and sends everyone to the god-mode set-up until an admin exists. */

/** The toasts' distance from the bottom: clear of the bulk bar's top edge (work-items.css .wi-bulk). */
const TOAST_BOTTOM_OFFSET = 76;
export function Root() {
  const snap = useSnapshot(session);
  const themeSnap = useSnapshot(theme);
  const location = useLocation();
  useEffect(() => {
    void startSession();
  }, []);
  // The last visit's board painted before the app (public/prepaint.js) stays only while the app
  // is on its address, for its user.
  const userId = snap.loaded ? (snap.user?.id ?? null) : undefined;
  useEffect(() => checkPrepaint(location.pathname, userId), [location.pathname, userId]);

  let content = <Outlet />;
  if (!snap.loaded) content = <ScreenLoader />;
  else if (snap.loadError && !snap.instance)
    content = (
      <div className="full-center" style={{ padding: 24 }}>
        <div className="stack" style={{ maxWidth: 420 }}>
          <Banner>{snap.loadError}. The server may be starting or unreachable.</Banner>
          <Button onClick={() => void loadSession()}>Try again</Button>
        </div>
      </div>
    );
  else if (snap.instance && !snap.instance.instance.is_setup_done && !location.pathname.startsWith("/god-mode"))
    content = <Navigate to="/god-mode/setup/" replace />;

  const resolved =
    themeSnap.name === "dark" || themeSnap.name === "dark-contrast"
      ? "dark"
      : themeSnap.name === "system"
        ? "system"
        : "light";
  return (
    <>
      {content}
      {/* Above the boards' bulk bar (20 px from the bottom, ~40 px tall): a toast over it hid its
          right-hand actions, and hovering a toast keeps it open. */}
      <Toaster
        position="bottom-right"
        offset={{ bottom: TOAST_BOTTOM_OFFSET, right: 24 }}
        mobileOffset={{ bottom: TOAST_BOTTOM_OFFSET, right: 16, left: 16 }}
        theme={resolved}
        richColors
        closeButton
      />
    </>
  );
}
