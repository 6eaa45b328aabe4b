import { type ReactNode, useEffect } from "react";
import { useSnapshot } from "valtio";
import { session } from "../../stores/session";

/** A settings page's heading and one line of explanation; also names the browser tab. */
export function PageHeader({ title, description }: { title: string; description: ReactNode }) {
  const instanceName = useSnapshot(session).instance?.instance.instance_name || "Tideline";
  useEffect(() => {
    document.title = `${title} · ${instanceName}`;
  }, [title, instanceName]);
  return (
    <header className="gm-page-header">
      <h1>{title}</h1>
      <p className="muted">{description}</p>
    </header>
  );
}
