import type { LogoProps } from "../../../stores/workspaces";
import "./components.css";

/** A project's emoji, or the first letter of its name on a tinted tile. */
export function ProjectLogo({ name, logo, size = 20 }: { name: string; logo?: LogoProps | null; size?: number }) {
  const emoji = logo?.in_use !== "icon" ? logo?.emoji?.value : undefined;
  return (
    <span
      className="project-logo"
      style={{ width: size, height: size, fontSize: emoji ? Math.round(size * 0.72) : Math.round(size * 0.5) }}
      aria-hidden
    >
      {emoji ? emoji : (name.trim()[0] ?? "?").toUpperCase()}
    </span>
  );
}

/** A workspace's logo image, or its initial on a coloured square. */
export function WorkspaceLogo({ name, url, size = 24 }: { name: string; url?: string | null; size?: number }) {
  return (
    <span
      className="workspace-logo"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.5) }}
      aria-hidden
    >
      {url ? <img src={url} alt="" /> : (name.trim()[0] ?? "?").toUpperCase()}
    </span>
  );
}
