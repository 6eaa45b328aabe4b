/** Request bodies of the intake API (unknown keys are dropped, as everywhere). */
import { ISSUE_NAME_MAX, PRIORITIES } from "@tideline/shared";
import { z } from "zod";
import { dateField, optionalRef } from "../issues/schema.ts";

const id = z.uuid("Expected an id");
const ids = z.array(id).max(100);

/** The work-item fields of the intake form (no cycle or modules: a request is not planned yet). */
const intakeIssueFields = z
  .object({
    name: z
      .string("Name is required")
      .trim()
      .min(1, "Name is required")
      .max(ISSUE_NAME_MAX, `Name must be at most ${ISSUE_NAME_MAX} characters`),
    description_html: z.string().max(2_000_000, "Description is too long").nullable(),
    priority: z.enum(PRIORITIES),
    assignee_ids: ids,
    label_ids: ids,
    parent_id: optionalRef,
    estimate_point: optionalRef,
    start_date: dateField,
    target_date: dateField,
  })
  .partial();

export const createIntakeBody = z.object({
  source: z.literal("IN_APP", "Only IN_APP requests can be submitted here").optional(),
  issue: intakeIssueFields.required({ name: true }),
});
export type CreateIntakeInput = z.output<typeof createIntakeBody>;

/** -2 pending, -1 declined, 0 snoozed, 1 accepted, 2 duplicate (product-domain §4). */
export const INTAKE_STATUSES = [-2, -1, 0, 1, 2] as const;

export const updateIntakeBody = z.object({
  status: z
    .union(
      INTAKE_STATUSES.map((s) => z.literal(s)),
      "status must be -2 (pending), -1 (declined), 0 (snoozed), 1 (accepted) or 2 (duplicate)",
    )
    .optional(),
  snoozed_till: z.iso.datetime({ offset: true, message: "Expected a date and time" }).nullable().optional(),
  duplicate_to: id.nullable().optional(),
  issue: intakeIssueFields.optional(),
});
export type UpdateIntakeInput = z.output<typeof updateIntakeBody>;
