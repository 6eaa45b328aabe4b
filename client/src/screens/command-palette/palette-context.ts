/**
 * What the palette knows about where it was opened: the project of the screen, and the work item
 * open there (its full page by key, an epic's page, or a board's peek) — the one its work-item
 * actions change. Read from the address, so it holds on every screen that shows one.
 */
import { workItemDetail } from "../../stores/work-item-detail";
import { getWorkItem } from "../../stores/work-items";

export type PaletteContext = {
  projectId: string | null;
  workItem: { id: string; projectId: string } | null;
};

export function paletteContext(slug: string, pathname: string, search: string): PaletteContext {
  const prefix = `/${slug}/`;
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : "";
  const parts = rest.split("/").filter(Boolean);
  const projectId = parts[0] === "projects" && parts[1] && parts[1] !== "archives" ? parts[1] : null;

  // /browse/WEB-12/: the key's item, once the page has read it.
  if (parts[0] === "browse" && parts[1]) {
    const known = workItemDetail.keys[parts[1].toUpperCase()];
    if (known && known !== "missing") return { projectId: known.projectId, workItem: known };
  }
  // /projects/:id/epics/:issueId/
  if (projectId && parts[2] === "epics" && parts[3]) {
    return { projectId, workItem: { id: parts[3], projectId } };
  }
  // A board's peek: ?peekId= (archived items are read only, so not offered). A workspace view's
  // board spans projects: the item's own project then.
  const peekId = new URLSearchParams(search).get("peekId");
  const peekProject = projectId ?? (peekId ? getWorkItem(peekId)?.project_id : undefined);
  if (peekId && peekProject && parts[2] !== "archives") {
    return { projectId: peekProject, workItem: { id: peekId, projectId: peekProject } };
  }
  return { projectId, workItem: null };
}
