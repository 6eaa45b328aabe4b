/** Request bodies and query strings of the work-items API (validated with zod; unknown fields ignored, see http/errors.ts). */
import { ISSUE_NAME_MAX, PRIORITIES, toDateOnly } from "@tideline/shared";
import { z } from "zod";

const id = z.guid("Expected an id");

/**
 * An optional reference (parent_id, estimate_point): `""` — what a cleared form field sends —
 * means none, exactly like null.
 */
export const optionalRef = z.preprocess((value) => (value === "" ? null : value), id.nullable());

/**
 * The state: `""` means "not chosen", as if the field were not sent — the project's default
 * state on create, no change on update (a work item always has a state, so null stays a 400
 * there).
 */
export const stateRef = z.preprocess((value) => (value === "" ? undefined : value), id.nullable().optional());
/** A cycle reference: like optionalRef, and the list's "None" group value also means none. */
const cycleRef = z.preprocess((value) => (value === "" || value === "None" ? null : value), id.nullable());
const ids = (max: number) => z.array(id).max(max, `At most ${max} ids`);

/** yyyy-MM-dd, read from the first 10 characters (product-domain §5); null clears. */
export const dateField = z
  .string()
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value === "") return null;
    const day = toDateOnly(value);
    if (!day) {
      ctx.addIssue({ code: "custom", message: "Expected a date as yyyy-MM-dd" });
      return z.NEVER;
    }
    return day;
  });

/**
 * type_id is in the default form, but work-item types don't exist yet: only "nothing" is
 * accepted, anything else is a clear 400.
 */
const notYet = (what: string, empty: (v: unknown) => boolean) =>
  z.unknown().refine(empty, { message: `${what} are not available yet; leave this empty.` });
const isNullish = (v: unknown) => v === null || v === undefined || v === "";

const formFields = {
  name: z
    .string("Name is required")
    .trim()
    .min(1, "Name is required")
    .max(ISSUE_NAME_MAX, `Name must be at most ${ISSUE_NAME_MAX} characters`),
  description_html: z.string().max(2_000_000, "Description is too long").nullable(),
  state_id: stateRef,
  priority: z.enum(PRIORITIES),
  assignee_ids: ids(100),
  label_ids: ids(100),
  parent_id: optionalRef,
  estimate_point: optionalRef,
  start_date: dateField,
  target_date: dateField,
  sort_order: z.number().finite(),
  project_id: id,
  /** The item's cycle (routes/cycles): null, "" or "None" (quick add's None) means no cycle. */
  cycle_id: cycleRef,
  /** The item's modules (routes/modules): the whole list; null or "" means none. */
  module_ids: z.preprocess((value) => (value === null || value === "" ? [] : value), ids(100)),
  type_id: notYet("Work item types", isNullish),
};

export const createIssueBody = z
  .object({ ...formFields, name: formFields.name })
  .partial()
  .required({ name: true });
export type CreateIssueInput = z.output<typeof createIssueBody>;

export const updateIssueBody = z.object(formFields).partial();
export type UpdateIssueInput = z.output<typeof updateIssueBody>;

/** A draft PATCH may also publish the draft with is_draft: false. */
export const updateDraftBody = z.object({ ...formFields, is_draft: z.literal(false) }).partial();

export const workspaceDraftBody = createIssueBody.extend({ project_id: id });

export const issueIdsBody = z.object({ issue_ids: z.array(id).min(1, "Pick at least one work item").max(500) });

export const bulkOperationBody = z.object({
  issue_ids: z.array(id).min(1, "Pick at least one work item").max(500),
  properties: z
    .object({
      state_id: stateRef,
      priority: z.enum(PRIORITIES),
      assignee_ids: ids(100),
      label_ids: ids(100),
      start_date: dateField,
      target_date: dateField,
      estimate_point: optionalRef,
      cycle_id: cycleRef,
      /** Added to each item's own modules, like assignees and labels. */
      module_ids: ids(100),
    })
    .partial(),
});

export const issueDatesBody = z.object({
  updates: z
    .array(z.object({ id, start_date: dateField.optional(), target_date: dateField.optional() }))
    .min(1, "Nothing to update")
    .max(500),
});

export const userPropertiesBody = z
  .object({
    filters: z.record(z.string(), z.unknown()),
    display_filters: z.record(z.string(), z.unknown()),
    display_properties: z.record(z.string(), z.unknown()),
  })
  .partial();
