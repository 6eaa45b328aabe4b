/**
 * Request shapes of the projects API. Unknown fields are ignored (http/errors.ts); cross-row
 * rules (uniqueness, membership) live in service.ts.
 */
import {
  isAcceptableCoverImage,
  isValidTimezone,
  NETWORK,
  PROJECT_AUTOMATION_MONTHS,
  type PROJECT_FEATURES,
  ROLES,
} from "@tideline/shared";
import { z } from "zod";

export const PROJECT_NAME_MAX = 255;
export const PROJECT_DESCRIPTION_MAX = 10_000;
/** At most this many projects or members in one bulk call. */
export const BULK_MAX = 200;

const name = z.string().trim().min(1, "Project name is required").max(PROJECT_NAME_MAX);
const description = z.string().max(PROJECT_DESCRIPTION_MAX);
/** Sanitised and length-checked in the service (checkProjectIdentifier), so the message is specific. */
const identifier = z.string().max(100);
const network = z.union([z.literal(NETWORK.private), z.literal(NETWORK.public)], {
  error: "network must be 0 (private) or 2 (public)",
});
const userId = z.uuid("Must be a user id");
const coverImage = z
  .string()
  .max(2048)
  .refine(isAcceptableCoverImage, "Cover must be a preset, an uploaded image or an http(s) address");

/** An emoji or an icon, as the logo picker stores it (product-domain §3 Logo). */
const logoProps = z
  .object({
    in_use: z.enum(["emoji", "icon"]),
    emoji: z.object({ value: z.string().max(64), url: z.string().max(512) }).partial(),
    icon: z
      .object({ name: z.string().max(64), color: z.string().max(32), background_color: z.string().max(32) })
      .partial(),
  })
  .partial();

const automationMonths = z
  .number()
  .int()
  .refine((n) => (PROJECT_AUTOMATION_MONTHS as readonly number[]).includes(n), {
    message: `Must be one of ${PROJECT_AUTOMATION_MONTHS.join(", ")} months`,
  });

export const createProjectBody = z.object({
  name,
  identifier,
  description: description.optional(),
  network: network.optional(),
  project_lead: userId.nullable().optional(),
  cover_image: coverImage.nullable().optional(),
  logo_props: logoProps.optional(),
});
export type CreateProjectBody = z.output<typeof createProjectBody>;

const featureFlags = {
  cycle_view: z.boolean(),
  module_view: z.boolean(),
  issue_views_view: z.boolean(),
  page_view: z.boolean(),
  inbox_view: z.boolean(),
  is_time_tracking_enabled: z.boolean(),
  is_epic_enabled: z.boolean(),
} satisfies Record<keyof typeof PROJECT_FEATURES, z.ZodType>;

export const updateProjectBody = z
  .object({
    name,
    description,
    identifier,
    network,
    project_lead: userId.nullable(),
    default_assignee: userId.nullable(),
    cover_image: coverImage.nullable(),
    logo_props: logoProps,
    timezone: z.string().max(64).refine(isValidTimezone, "Unknown time zone"),
    archive_in: automationMonths,
    close_in: automationMonths,
    guest_view_all_features: z.boolean(),
    ...featureFlags,
  })
  .partial();
export type UpdateProjectBody = z.output<typeof updateProjectBody>;

const role = z.union(
  ROLES.map((r) => z.literal(r)),
  { error: "role must be 20 (admin), 15 (member) or 5 (guest)" },
);

export const addMembersBody = z.object({
  members: z
    .array(z.object({ member_id: userId, role }))
    .min(1, "Choose at least one member")
    .max(BULK_MAX),
});

export const updateMemberBody = z.object({ role });

export const joinProjectsBody = z.object({
  project_ids: z.array(z.uuid("Must be a project id")).min(1, "Choose at least one project").max(BULK_MAX),
});

export const favoriteProjectBody = z.object({ project: z.uuid("Must be a project id") });

const booleanFlag = z.enum(["true", "false"], { error: "Must be true or false" });

export const listProjectsQuery = z.object({ archived: booleanFlag.optional() });
export const membersQuery = z.object({ exclude_guests: booleanFlag.optional() });
export const identifierQuery = z.object({ name: z.string().max(100) });

/**
 * project-stats/ fields: the reference's five (apps/api/plane/app/views/analytic/base.py
 * ProjectStatsEndpoint) and total_states. The reference answers its five when `fields` names
 * none of them; its own web client asks for total_work_items and total_completed_work_items,
 * which it then reads as total_issues and completed_issues, so those two names mean them here.
 */
export const STAT_FIELDS = [
  "total_issues",
  "completed_issues",
  "total_members",
  "total_cycles",
  "total_modules",
  "total_states",
] as const;
export type StatField = (typeof STAT_FIELDS)[number];
/** What an empty or unknown `fields` asks for, as the reference answers it. */
export const DEFAULT_STAT_FIELDS: readonly StatField[] = [
  "total_issues",
  "completed_issues",
  "total_members",
  "total_cycles",
  "total_modules",
];
const STAT_FIELD_ALIASES: Record<string, StatField> = {
  total_work_items: "total_issues",
  total_completed_work_items: "completed_issues",
};

/** The stat fields a `fields` list names (aliases resolved, unknown names dropped as the reference drops them). */
export function statFieldsOf(names: readonly string[] | undefined): readonly StatField[] {
  const known = new Set<StatField>();
  for (const name of names ?? []) {
    const field = (STAT_FIELDS as readonly string[]).includes(name) ? (name as StatField) : STAT_FIELD_ALIASES[name];
    if (field) known.add(field);
  }
  return known.size ? STAT_FIELDS.filter((f) => known.has(f)) : DEFAULT_STAT_FIELDS;
}

/** Comma lists in the query: `project_ids=a,b` and `fields=total_members,total_states`. */
const commaList = z
  .string()
  .max(20_000)
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  );
export const statsQuery = z.object({
  project_ids: commaList.pipe(z.array(z.uuid("Must be a project id")).max(BULK_MAX)).optional(),
  fields: commaList.pipe(z.array(z.string().max(100)).max(50)).optional(),
});
