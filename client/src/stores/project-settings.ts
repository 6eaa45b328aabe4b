/**
 * Project settings for work items: states, labels and estimates (product-domain §3–§6, §9).
 * The data lives in projectMeta.byProject[projectId] (the same lists the work-item screens
 * draw from), so a change here shows everywhere at once. Every action is optimistic: applied
 * at once, undone with a toast if the server refuses (lib/optimistic.ts). Mutating requests
 * carry a fresh x-client-mutation-id so the live layer can skip their echoes.
 */
import type { EstimateType, StateGroup } from "@tideline/shared";
import { labelPosition, statePosition } from "@tideline/shared";
import { toast } from "sonner";
import { api } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { type PointRow, planPointEdits } from "../lib/settings-order";
import {
  type Estimate,
  type EstimatePoint,
  loadProjectMeta,
  type ProjectLabel,
  type ProjectMeta,
  type ProjectState,
  projectMeta,
  sortLabels,
  sortStates,
} from "./project-meta";

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;

const TEMP_PREFIX = "tmp-";
const tempId = () => `${TEMP_PREFIX}${crypto.randomUUID()}`;

/** Rows created here that the server hasn't answered yet (they can't be edited or moved). */
export function isTempId(id: string): boolean {
  return id.startsWith(TEMP_PREFIX);
}

type Lists = Pick<ProjectMeta, "states" | "labels" | "estimates">;

/** Change a project's lists; returns the undo (the lists as they were). */
function patchMeta(projectId: string, change: (meta: ProjectMeta) => Partial<Lists>): () => void {
  const meta = projectMeta.byProject[projectId];
  if (!meta) return () => undefined;
  const before: Lists = { states: meta.states, labels: meta.labels, estimates: meta.estimates };
  Object.assign(meta, change(meta));
  return () => {
    const current = projectMeta.byProject[projectId];
    if (current) Object.assign(current, before);
  };
}

const withHeaders = <T extends object>(options: T) => ({ ...options, headers: mutationHeaders() });

// ───────────────────────────── states ─────────────────────────────

export type StateInput = { name: string; color: string; group: StateGroup; description: string };
export type StatePatch = Partial<StateInput & { sequence: number }>;

/** Add a state at the end of its group. Resolves to the saved state, or undefined if refused. */
export async function createState(
  slug: string,
  projectId: string,
  input: StateInput,
): Promise<ProjectState | undefined> {
  const id = tempId();
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => {
        const group = meta.states.filter((s) => s.group === input.group);
        const last = group[group.length - 1]?.sequence ?? null;
        const temp: ProjectState = {
          id,
          project_id: projectId,
          ...input,
          default: false,
          sequence: statePosition(last, null),
        };
        return { states: sortStates([...meta.states, temp]) };
      }),
    call: () => api.post(`${base(slug, projectId)}/states/`, withHeaders({ json: input })).json<ProjectState>(),
    error: "Couldn't add the state",
  });
  if (saved) patchMeta(projectId, (meta) => ({ states: meta.states.map((s) => (s.id === id ? saved : s)) }));
  return saved;
}

export async function updateState(
  slug: string,
  projectId: string,
  stateId: string,
  patch: StatePatch,
  error = "Couldn't update the state",
): Promise<boolean> {
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => ({
        states: sortStates(meta.states.map((s) => (s.id === stateId ? { ...s, ...patch } : s))),
      })),
    call: () =>
      api.patch(`${base(slug, projectId)}/states/${stateId}/`, withHeaders({ json: patch })).json<ProjectState>(),
    error,
  });
  if (saved)
    patchMeta(projectId, (meta) => ({
      states: sortStates(meta.states.map((s) => (s.id === stateId ? saved : s))),
    }));
  return Boolean(saved);
}

/** Reorder within a group: the caller computes the sequence with statePosition(). */
export function moveState(slug: string, projectId: string, stateId: string, sequence: number): Promise<boolean> {
  return updateState(slug, projectId, stateId, { sequence }, "Couldn't move the state");
}

/** Make a state the project's default; the previous default stops being one. */
export async function markDefaultState(slug: string, projectId: string, stateId: string): Promise<boolean> {
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => ({
        states: meta.states.map((s) => ({ ...s, default: s.id === stateId })),
      })),
    call: () =>
      api
        .post(`${base(slug, projectId)}/states/${stateId}/mark-default/`, withHeaders({ json: {} }))
        .json<ProjectState>(),
    error: "Couldn't change the default state",
  });
  return Boolean(saved);
}

/**
 * Delete a state. The server refuses the default state and a state that still has work items;
 * the toast then carries its reason.
 */
export async function deleteState(slug: string, projectId: string, stateId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => patchMeta(projectId, (meta) => ({ states: meta.states.filter((s) => s.id !== stateId) })),
    call: () => api.delete(`${base(slug, projectId)}/states/${stateId}/`, withHeaders({})).then(() => true),
    error: "Couldn't delete the state",
  });
  return Boolean(ok);
}

// ───────────────────────────── labels ─────────────────────────────

export type LabelInput = { name: string; color: string; parent: string | null };
export type LabelPatch = Partial<LabelInput & { sort_order: number }>;

/** Sort order after the last child of `parent` (the server's rule for a new label). */
export function endOfSiblings(labels: readonly ProjectLabel[], parent: string | null): number {
  const siblings = labels.filter((l) => l.parent === parent);
  const last = siblings.reduce<number | null>(
    (max, l) => (max === null || l.sort_order > max ? l.sort_order : max),
    null,
  );
  return labelPosition(last, null);
}

export async function createLabel(
  slug: string,
  projectId: string,
  input: LabelInput,
): Promise<ProjectLabel | undefined> {
  const id = tempId();
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => {
        const temp: ProjectLabel = {
          id,
          project_id: projectId,
          ...input,
          description: "",
          sort_order: endOfSiblings(meta.labels, input.parent),
        };
        return { labels: sortLabels([...meta.labels, temp]) };
      }),
    call: () => api.post(`${base(slug, projectId)}/issue-labels/`, withHeaders({ json: input })).json<ProjectLabel>(),
    error: "Couldn't add the label",
  });
  if (saved) patchMeta(projectId, (meta) => ({ labels: meta.labels.map((l) => (l.id === id ? saved : l)) }));
  return saved;
}

/**
 * Edit, move or re-nest a label. A new parent without a sort_order puts it after its new
 * siblings (as the server does), so the optimistic tree matches the answer.
 */
export async function updateLabel(
  slug: string,
  projectId: string,
  labelId: string,
  patch: LabelPatch,
  error = "Couldn't update the label",
): Promise<boolean> {
  const meta = projectMeta.byProject[projectId];
  const current = meta?.labels.find((l) => l.id === labelId);
  const body: LabelPatch = { ...patch };
  if (
    meta &&
    current &&
    patch.parent !== undefined &&
    patch.parent !== current.parent &&
    patch.sort_order === undefined
  )
    body.sort_order = endOfSiblings(
      meta.labels.filter((l) => l.id !== labelId),
      patch.parent,
    );
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (m) => ({
        labels: sortLabels(m.labels.map((l) => (l.id === labelId ? { ...l, ...body } : l))),
      })),
    call: () =>
      api.patch(`${base(slug, projectId)}/issue-labels/${labelId}/`, withHeaders({ json: body })).json<ProjectLabel>(),
    error,
  });
  if (saved) patchMeta(projectId, (m) => ({ labels: sortLabels(m.labels.map((l) => (l.id === labelId ? saved : l))) }));
  return Boolean(saved);
}

/** Drag and drop: the caller computes parent and sort order (labelDropPatch). */
export function moveLabel(
  slug: string,
  projectId: string,
  labelId: string,
  move: { parent: string | null; sort_order: number },
): Promise<boolean> {
  return updateLabel(slug, projectId, labelId, move, "Couldn't move the label");
}

/** Delete a label; its children move up to its parent, as on the server. */
export async function deleteLabel(slug: string, projectId: string, labelId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => {
        const gone = meta.labels.find((l) => l.id === labelId);
        const parent = gone?.parent ?? null;
        return {
          labels: meta.labels.filter((l) => l.id !== labelId).map((l) => (l.parent === labelId ? { ...l, parent } : l)),
        };
      }),
    call: () => api.delete(`${base(slug, projectId)}/issue-labels/${labelId}/`, withHeaders({})).then(() => true),
    error: "Couldn't delete the label",
  });
  return Boolean(ok);
}

// ───────────────────────────── estimates ─────────────────────────────

export type EstimateInput = {
  name: string;
  description?: string;
  type: Exclude<EstimateType, "time">;
  values: readonly string[];
};

/** Replace one estimate in the list (and keep at most one active). */
function replaceEstimate(projectId: string, id: string, next: Estimate): void {
  patchMeta(projectId, (meta) => ({
    estimates: meta.estimates.map((e) =>
      e.id === id ? next : next.is_active && e.is_active ? { ...e, is_active: false } : e,
    ),
  }));
}

/**
 * Create an estimate (from a template's values or custom ones). It becomes the active one when
 * the project has none, as the server decides.
 */
export async function createEstimate(
  slug: string,
  projectId: string,
  input: EstimateInput,
): Promise<Estimate | undefined> {
  const id = tempId();
  const points = input.values.map((value, i) => ({ key: i + 1, value: value.trim() }));
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => {
        const temp: Estimate = {
          id,
          name: input.name,
          description: input.description ?? "",
          type: input.type,
          is_active: !meta.estimates.some((e) => e.is_active),
          points: points.map((p) => ({ id: tempId(), description: "", ...p })),
        };
        return { estimates: [...meta.estimates, temp] };
      }),
    call: () =>
      api
        .post(
          `${base(slug, projectId)}/estimates/`,
          withHeaders({
            json: {
              estimate: { name: input.name, description: input.description ?? "", type: input.type },
              estimate_points: points,
            },
          }),
        )
        .json<Estimate>(),
    error: "Couldn't create the estimate",
  });
  if (saved) replaceEstimate(projectId, id, saved);
  return saved;
}

/** Switch estimates on with this estimate, or off. */
export async function setEstimateActive(
  slug: string,
  projectId: string,
  estimateId: string,
  active: boolean,
): Promise<boolean> {
  const url = `${base(slug, projectId)}/estimates/${estimateId}/activate/`;
  const ok = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => ({
        estimates: meta.estimates.map((e) => ({ ...e, is_active: active ? e.id === estimateId : false })),
      })),
    call: () =>
      active
        ? api.post(url, withHeaders({ json: {} })).then(() => true)
        : api.delete(url, withHeaders({})).then(() => true),
    error: active ? "Couldn't switch estimates on" : "Couldn't switch estimates off",
  });
  return Boolean(ok);
}

/** Delete an estimate; work items lose the estimates they had from it (the server clears them). */
export async function deleteEstimate(slug: string, projectId: string, estimateId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => patchMeta(projectId, (meta) => ({ estimates: meta.estimates.filter((e) => e.id !== estimateId) })),
    call: () => api.delete(`${base(slug, projectId)}/estimates/${estimateId}/`, withHeaders({})).then(() => true),
    error: "Couldn't delete the estimate",
  });
  return Boolean(ok);
}

/**
 * Save an edited estimate: its name and its points (values changed, points added or removed,
 * 2–6 in all). The requests run one by one in an order the server accepts (planPointEdits);
 * if one is refused, the list is undone and then reloaded, since earlier requests may have
 * been saved.
 */
export async function saveEstimate(
  slug: string,
  projectId: string,
  estimateId: string,
  edit: { name: string; rows: readonly PointRow[] },
): Promise<boolean> {
  const url = `${base(slug, projectId)}/estimates/${estimateId}`;
  const current = projectMeta.byProject[projectId]?.estimates.find((e) => e.id === estimateId);
  if (!current) return false;
  const ops = planPointEdits(current.points, edit.rows);
  const renamed = edit.name.trim() !== current.name ? edit.name.trim() : null;
  if (ops.length === 0 && renamed === null) return true;
  let nextKey = current.points.reduce((max, p) => Math.max(max, p.key), 0);
  const points: EstimatePoint[] = edit.rows.map((row) => {
    const existing = row.id ? current.points.find((p) => p.id === row.id) : undefined;
    return existing
      ? { ...existing, value: row.value.trim() }
      : { id: tempId(), key: ++nextKey, value: row.value.trim(), description: "" };
  });
  const saved = await optimistic({
    apply: () =>
      patchMeta(projectId, (meta) => ({
        estimates: meta.estimates.map((e) => (e.id === estimateId ? { ...e, name: renamed ?? e.name, points } : e)),
      })),
    call: async () => {
      if (renamed !== null) await api.patch(`${url}/`, withHeaders({ json: { name: renamed } }));
      for (const op of ops) {
        if (op.kind === "update")
          await api.patch(`${url}/estimate-points/${op.id}/`, withHeaders({ json: { value: op.value } }));
        else if (op.kind === "add")
          await api.post(`${url}/estimate-points/`, withHeaders({ json: { key: op.key, value: op.value } }));
        else await api.delete(`${url}/estimate-points/${op.id}/`, withHeaders({ json: {} }));
      }
      return api.get(`${url}/`).json<Estimate>();
    },
    error: "Couldn't save the estimate",
  });
  if (saved) replaceEstimate(projectId, estimateId, saved);
  else
    void loadProjectMeta(slug, projectId, true).catch(() =>
      toast.error("Couldn't reload the estimates", { description: "Reload the page to see what was saved." }),
    );
  return Boolean(saved);
}
