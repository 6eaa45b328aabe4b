import { useEffect, useState } from "react";
import { Navigate } from "react-router";
import { ScreenLoader } from "../components/ui";
import { api } from "../lib/api";

type Settings = { workspace: { last_workspace_slug: string | null; fallback_workspace_slug: string | null } };

/** Where a signed-in, onboarded user lands: their last workspace, another one, or creation. */
export function HomeRedirect() {
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    api
      .get("/api/users/me/settings/")
      .json<Settings>()
      .then((s) => {
        const slug = s.workspace.last_workspace_slug ?? s.workspace.fallback_workspace_slug;
        if (alive) setTarget(slug ? `/${slug}/` : "/create-workspace/");
      })
      .catch(() => alive && setTarget("/create-workspace/"));
    return () => {
      alive = false;
    };
  }, []);
  return target ? <Navigate to={target} replace /> : <ScreenLoader />;
}
