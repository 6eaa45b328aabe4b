/**
 * Request shapes of the states API. Unknown fields are ignored (http/errors.ts); the default
 * flag is not writable here (sent, it is ignored) — it changes only through mark-default, which keeps
 * exactly one default per project.
 */
import { isHexColor, STATE_GROUPS } from "@tideline/shared";
import { z } from "zod";

export const STATE_NAME_MAX = 255;
export const STATE_DESCRIPTION_MAX = 10_000;

const name = z.string().trim().min(1, "State name is required").max(STATE_NAME_MAX);
const description = z.string().max(STATE_DESCRIPTION_MAX);
const color = z.string().trim().refine(isHexColor, "Colour must be a hex code such as #60646C");
const group = z.enum(STATE_GROUPS, { error: `Group must be one of ${STATE_GROUPS.join(", ")}` });
/**
 * A position within the group; the client computes it with statePosition(). zod refuses NaN
 * and ±Infinity (a JSON 1e400 parses to Infinity).
 */
const sequence = z.number({ error: "Sequence must be a finite number" });

const fields = { name, color, group, description: description.optional(), sequence: sequence.optional() };

export const createStateBody = z.object(fields);
export type CreateStateBody = z.output<typeof createStateBody>;

/** PUT sends the whole editable state: name, colour and group are required. */
export const replaceStateBody = createStateBody;

export const updateStateBody = z.object(fields).partial();
export type UpdateStateBody = z.output<typeof updateStateBody>;

/** mark-default takes no fields. */
export const markDefaultBody = z.object({});
