/**
 * The one database schema (Drizzle pg-core), valid on PGlite and PostgreSQL alike.
 * Conventions: uuid ids, audit columns on every entity, `workspace_id` on every row that
 * belongs to a workspace, an index for every lookup the API does.
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** created_at / updated_at / created_by / updated_by, shared by every entity. */
const audit = {
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  createdById: uuid("created_by"),
  updatedById: uuid("updated_by"),
};

// ───────────────────────────── users and sign-in ─────────────────────────────

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    isPasswordAutoset: boolean("is_password_autoset").notNull().default(true),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    displayName: text("display_name").notNull().default(""),
    avatarUrl: text("avatar_url"),
    coverImageUrl: text("cover_image_url"),
    isActive: boolean("is_active").notNull().default(true),
    isBot: boolean("is_bot").notNull().default(false),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    lastLoginAt: ts("last_login_at"),
    lastLoginIp: text("last_login_ip"),
    ...audit,
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const userProfiles = pgTable(
  "user_profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role"),
    lastWorkspaceId: uuid("last_workspace_id"),
    theme: jsonb("theme").$type<Record<string, unknown>>().notNull().default({}),
    onboardingStep: jsonb("onboarding_step").$type<OnboardingStep>().notNull().default({
      workspace_join: false,
      profile_complete: false,
      workspace_create: false,
      workspace_invite: false,
    }),
    isOnboarded: boolean("is_onboarded").notNull().default(false),
    isTourCompleted: boolean("is_tour_completed").notNull().default(false),
    useCase: text("use_case"),
    language: text("language").notNull().default("en"),
    billingAddressCountry: text("billing_address_country"),
    billingAddress: text("billing_address"),
    hasBillingAddress: boolean("has_billing_address").notNull().default(false),
    notificationPreferences: jsonb("notification_preferences").$type<NotificationPreferences>().notNull().default({
      property_change: true,
      state_change: true,
      comment: true,
      mention: true,
      issue_completed: true,
    }),
    ...audit,
  },
  (t) => [uniqueIndex("user_profiles_user_key").on(t.userId)],
);

export type OnboardingStep = {
  workspace_join: boolean;
  profile_complete: boolean;
  workspace_create: boolean;
  workspace_invite: boolean;
};
export type NotificationPreferences = {
  property_change: boolean;
  state_change: boolean;
  comment: boolean;
  mention: boolean;
  issue_completed: boolean;
};

/** Server-side sessions: the cookie holds a random token; the row holds its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isAdminSession: boolean("is_admin_session").notNull().default(false),
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sessions_token_key").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/** Six-digit single-use codes mailed to an address (sign-in, sign-up, verify-email), valid ten minutes. */
export const magicCodes = pgTable(
  "magic_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    codeHash: text("code_hash").notNull(),
    /** The code sealed with the instance secret, so that asking again mails the same code. */
    codeSealed: text("code_sealed").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  // Several live codes per address: a new request never replaces a code already mailed.
  (t) => [index("magic_codes_email_idx").on(t.email)],
);

/** Password-reset tokens (hashed, single use, one hour). */
export const passwordTokens = pgTable(
  "password_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("password_tokens_token_key").on(t.tokenHash)],
);

// ───────────────────────────── instance (god-mode) ─────────────────────────────

/** Exactly one row: the installation's identity and its admin-editable configuration. */
export const instance = pgTable("instance", {
  id: uuid("id").primaryKey().defaultRandom(),
  instanceName: text("instance_name").notNull().default("Tideline"),
  isSetupDone: boolean("is_setup_done").notNull().default(false),
  config: jsonb("config").$type<InstanceConfig>().notNull().default({}),
  ...audit,
});

export type InstanceConfig = {
  enable_signup?: boolean;
  enable_email_password?: boolean;
  enable_magic_login?: boolean;
  smtp_host?: string;
  smtp_port?: number;
  smtp_user?: string;
  smtp_password?: string;
  smtp_from?: string;
  smtp_use_tls?: boolean;
  smtp_use_ssl?: boolean;
};

export const instanceAdmins = pgTable(
  "instance_admins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: integer("role").notNull().default(20),
    ...audit,
  },
  (t) => [uniqueIndex("instance_admins_user_key").on(t.userId)],
);

// ───────────────────────────── workspaces ─────────────────────────────

export const workspaces = pgTable(
  "workspaces",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    organizationSize: text("organization_size"),
    logoUrl: text("logo_url"),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    timezone: text("timezone").notNull().default("UTC"),
    ...audit,
  },
  (t) => [uniqueIndex("workspaces_slug_key").on(t.slug)],
);

export const workspaceMembers = pgTable(
  "workspace_members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: integer("role").notNull().default(15),
    isActive: boolean("is_active").notNull().default(true),
    viewProps: jsonb("view_props").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [
    uniqueIndex("workspace_members_ws_member_key").on(t.workspaceId, t.memberId),
    index("workspace_members_member_idx").on(t.memberId),
  ],
);

export const workspaceInvitations = pgTable(
  "workspace_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: integer("role").notNull().default(15),
    tokenHash: text("token_hash").notNull(),
    message: text("message"),
    accepted: boolean("accepted").notNull().default(false),
    respondedAt: ts("responded_at"),
    ...audit,
  },
  (t) => [
    uniqueIndex("workspace_invitations_ws_email_key").on(t.workspaceId, t.email),
    index("workspace_invitations_email_idx").on(t.email),
  ],
);

/**
 * Per user and workspace: the reference's workspace-level filters, display settings and sidebar
 * navigation preferences (GET/PATCH workspaces/:slug/user-properties/), created on first read.
 */
export const workspaceUserProperties = pgTable(
  "workspace_user_properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull().default({}),
    displayFilters: jsonb("display_filters").$type<Record<string, unknown>>().notNull().default({}),
    displayProperties: jsonb("display_properties").$type<Record<string, unknown>>().notNull().default({}),
    richFilters: jsonb("rich_filters").$type<Record<string, unknown>>().notNull().default({}),
    navigationProjectLimit: integer("navigation_project_limit").notNull().default(10),
    navigationControlPreference: text("navigation_control_preference").notNull().default("ACCORDION"),
    ...audit,
  },
  (t) => [uniqueIndex("workspace_user_properties_key").on(t.workspaceId, t.userId)],
);

/**
 * Stickies (product-domain §3 Sticky): a person's own notes in a workspace, never shared. The
 * body is the editor's HTML (sanitised) with its plain text for the list's search; the newest
 * sorts first (`sort_order` above every other of the owner's, as the reference numbers them).
 */
export const stickies = pgTable(
  "stickies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name"),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    descriptionStripped: text("description_stripped"),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    color: text("color"),
    backgroundColor: text("background_color"),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    ...audit,
  },
  (t) => [index("stickies_ws_owner_order_idx").on(t.workspaceId, t.ownerId, t.sortOrder)],
);

/** A person's quick links on their workspace home (the reference's WorkspaceUserLink). */
export const workspaceUserLinks = pgTable(
  "workspace_user_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title"),
    url: text("url").notNull(),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [index("workspace_user_links_ws_owner_idx").on(t.workspaceId, t.ownerId, t.createdAt)],
);

/** A person's home widgets in a workspace: shown or not, and their order (WorkspaceHomePreference). */
export const workspaceHomePreferences = pgTable(
  "workspace_home_preferences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    isEnabled: boolean("is_enabled").notNull().default(true),
    config: jsonb("config").$type<Record<string, unknown>>().notNull().default({}),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    ...audit,
  },
  (t) => [uniqueIndex("workspace_home_preferences_ws_user_key").on(t.workspaceId, t.userId, t.key)],
);

/**
 * What a person opened lately in a workspace (the reference's UserRecentVisit): one row per
 * person, workspace and entity (issue, page, project), `visited_at` moved on every open; the
 * newest RECENT_VISITS_KEPT per entity name are kept (routes/recent-visits).
 */
export const userRecentVisits = pgTable(
  "user_recent_visits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The project it was opened in (a page may be in several). */
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    entityName: text("entity_name").notNull(),
    entityIdentifier: uuid("entity_identifier").notNull(),
    visitedAt: ts("visited_at").notNull().defaultNow(),
    ...audit,
  },
  (t) => [
    uniqueIndex("user_recent_visits_entity_key").on(t.userId, t.workspaceId, t.entityName, t.entityIdentifier),
    index("user_recent_visits_ws_user_idx").on(t.workspaceId, t.userId, t.visitedAt),
  ],
);

/**
 * A person's sidebar entries in a workspace: pinned in the sidebar or under "More", and their
 * order (the reference's WorkspaceUserPreference, table workspace_user_preferences).
 */
export const workspaceUserPreferences = pgTable(
  "workspace_user_preferences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    isPinned: boolean("is_pinned").notNull().default(false),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    ...audit,
  },
  (t) => [uniqueIndex("workspace_user_preferences_ws_user_key").on(t.workspaceId, t.userId, t.key)],
);

// ───────────────────────────── projects ─────────────────────────────

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    identifier: text("identifier").notNull(),
    network: integer("network").notNull().default(2),
    projectLeadId: uuid("project_lead_id").references(() => users.id, { onDelete: "set null" }),
    defaultAssigneeId: uuid("default_assignee_id").references(() => users.id, {
      onDelete: "set null",
    }),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    coverImage: text("cover_image"),
    timezone: text("timezone").notNull().default("UTC"),
    archivedAt: ts("archived_at"),
    cycleView: boolean("cycle_view").notNull().default(true),
    moduleView: boolean("module_view").notNull().default(true),
    issueViewsView: boolean("issue_views_view").notNull().default(true),
    pageView: boolean("page_view").notNull().default(true),
    inboxView: boolean("inbox_view").notNull().default(false),
    isTimeTrackingEnabled: boolean("is_time_tracking_enabled").notNull().default(false),
    isEpicEnabled: boolean("is_epic_enabled").notNull().default(false),
    guestViewAllFeatures: boolean("guest_view_all_features").notNull().default(false),
    estimateId: uuid("estimate_id"),
    /** Last work-item number handed out; bumped under the row lock so numbers stay gap-free. */
    lastSequenceId: integer("last_sequence_id").notNull().default(0),
    archiveIn: integer("archive_in").notNull().default(0),
    closeIn: integer("close_in").notNull().default(0),
    ...audit,
  },
  (t) => [
    uniqueIndex("projects_ws_identifier_key").on(t.workspaceId, t.identifier),
    uniqueIndex("projects_ws_name_key").on(t.workspaceId, t.name),
  ],
);

export const projectMembers = pgTable(
  "project_members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: integer("role").notNull().default(15),
    isActive: boolean("is_active").notNull().default(true),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    viewProps: jsonb("view_props").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [
    uniqueIndex("project_members_project_member_key").on(t.projectId, t.memberId),
    index("project_members_ws_member_idx").on(t.workspaceId, t.memberId),
  ],
);

export const states = pgTable(
  "states",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    color: text("color").notNull(),
    group: text("group").notNull(),
    sequence: doublePrecision("sequence").notNull().default(65535),
    isDefault: boolean("default").notNull().default(false),
    ...audit,
  },
  (t) => [
    index("states_project_idx").on(t.projectId),
    uniqueIndex("states_project_name_key").on(t.projectId, t.name),
    // At most one default state per project, enforced by the database itself.
    uniqueIndex("states_one_default_key").on(t.projectId).where(sql`"default"`),
  ],
);

/** Favorites of any entity kind, with folders (product-domain §3 Favorite). */
export const userFavorites = pgTable(
  "user_favorites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    entityType: text("entity_type").notNull(),
    entityIdentifier: uuid("entity_identifier"),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    name: text("name"),
    isFolder: boolean("is_folder").notNull().default(false),
    parentId: uuid("parent_id"),
    sequence: doublePrecision("sequence").notNull().default(65535),
    ...audit,
  },
  (t) => [
    index("user_favorites_ws_user_idx").on(t.workspaceId, t.userId),
    uniqueIndex("user_favorites_entity_key")
      .on(t.userId, t.entityType, t.entityIdentifier)
      .where(sql`entity_identifier is not null`),
  ],
);

// ───────────────────────────── labels and estimates ─────────────────────────────

export const labels = pgTable(
  "labels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    parentId: uuid("parent_id"),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    color: text("color").notNull().default("#60646C"),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    ...audit,
  },
  (t) => [
    index("labels_project_idx").on(t.projectId),
    index("labels_workspace_idx").on(t.workspaceId),
    uniqueIndex("labels_project_name_key").on(t.projectId, t.name),
  ],
);

export const estimates = pgTable(
  "estimates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    type: text("type").notNull(),
    lastUsed: boolean("last_used").notNull().default(false),
    ...audit,
  },
  (t) => [index("estimates_project_idx").on(t.projectId), index("estimates_workspace_idx").on(t.workspaceId)],
);

export const estimatePoints = pgTable(
  "estimate_points",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    estimateId: uuid("estimate_id")
      .notNull()
      .references(() => estimates.id, { onDelete: "cascade" }),
    key: integer("key").notNull(),
    value: text("value").notNull(),
    description: text("description").notNull().default(""),
    ...audit,
  },
  (t) => [index("estimate_points_estimate_idx").on(t.estimateId)],
);

// ───────────────────────────── work items ─────────────────────────────

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/** Work items: issues and epics (is_epic), drafts (is_draft), archived and soft-deleted ones. */
export const issues = pgTable(
  "issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    sequenceId: integer("sequence_id").notNull(),
    name: text("name").notNull(),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    descriptionStripped: text("description_stripped").notNull().default(""),
    /** Yjs state of the live description document (issue.{id}); the HTML above is derived from it. */
    descriptionBinary: bytea("description_binary"),
    priority: text("priority").notNull().default("none"),
    stateId: uuid("state_id").references(() => states.id, { onDelete: "set null" }),
    parentId: uuid("parent_id"),
    estimatePointId: uuid("estimate_point_id").references(() => estimatePoints.id, { onDelete: "set null" }),
    startDate: date("start_date", { mode: "string" }),
    targetDate: date("target_date", { mode: "string" }),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    completedAt: ts("completed_at"),
    archivedAt: ts("archived_at"),
    deletedAt: ts("deleted_at"),
    isDraft: boolean("is_draft").notNull().default(false),
    isEpic: boolean("is_epic").notNull().default(false),
    /**
     * True while the item is an intake request not yet accepted (pending, declined, snoozed,
     * duplicate): it is in no work-item list, count, search or sync until accepted.
     */
    inIntake: boolean("in_intake").notNull().default(false),
    ...audit,
  },
  (t) => [
    uniqueIndex("issues_project_sequence_key").on(t.projectId, t.sequenceId),
    index("issues_project_state_idx").on(t.projectId, t.stateId),
    index("issues_project_updated_idx").on(t.projectId, t.updatedAt),
    index("issues_project_sort_idx").on(t.projectId, t.sortOrder),
    index("issues_parent_idx").on(t.parentId),
    index("issues_workspace_idx").on(t.workspaceId),
    // Workspace search (routes/search/work-items.ts): words of the name, the name's trigrams
    // (substrings, typos; pg_trgm), the lower-cased name (exact, prefix). The words of the
    // description live in issue_search_texts, kept by a trigger.
    // GIN without fastupdate: PGlite has no autovacuum to fold a pending list, which every
    // search would scan (and the planner, pricing that, turned to scanning the table).
    index("issues_name_fts_idx").using("gin", sql`to_tsvector('english', ${t.name})`).with({ fastupdate: false }),
    index("issues_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
    index("issues_ws_lower_name_idx").on(t.workspaceId, sql`lower(${t.name}) text_pattern_ops`),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The words of a work item's description for the workspace search (routes/search/README.md),
 * one row per work item, written only by the triggers of migration 0021 when the description's
 * plain text is written — never by the app. Apart from `issues` so that the many writes that
 * leave the description alone (priority, state, a drag on the board) do not index its words again.
 */
export const issueSearchTexts = pgTable(
  "issue_search_texts",
  {
    issueId: uuid("issue_id")
      .primaryKey()
      .references(() => issues.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    descriptionTsv: tsvector("description_tsv").notNull(),
  },
  // Without fastupdate: PGlite has no autovacuum to fold a pending list every search would scan.
  (t) => [index("issue_search_texts_tsv_idx").using("gin", t.descriptionTsv).with({ fastupdate: false })],
);

/**
 * Intake requests (product-domain §3 "Intake issue", §4): one row per work item submitted to a
 * project's intake. status: pending -2, declined -1, snoozed 0, accepted 1, duplicate 2.
 */
export const intakeIssues = pgTable(
  "intake_issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    status: integer("status").notNull().default(-2),
    snoozedTill: ts("snoozed_till"),
    duplicateToId: uuid("duplicate_to").references(() => issues.id, { onDelete: "set null" }),
    source: text("source").notNull().default("IN_APP"),
    ...audit,
  },
  (t) => [
    uniqueIndex("intake_issues_issue_key").on(t.issueId),
    index("intake_issues_project_idx").on(t.projectId, t.status, t.createdAt),
  ],
);

export const issueAssignees = pgTable(
  "issue_assignees",
  {
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    assigneeId: uuid("assignee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.assigneeId] }),
    index("issue_assignees_assignee_idx").on(t.assigneeId, t.projectId),
  ],
);

export const issueLabels = pgTable(
  "issue_labels",
  {
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    labelId: uuid("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index("issue_labels_label_idx").on(t.labelId)],
);

/** One row per related pair; "blocking" is read as the inverse of "blocked_by". */
export const issueRelations = pgTable(
  "issue_relations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    relatedIssueId: uuid("related_issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    relationType: text("relation_type").notNull(),
    ...audit,
  },
  (t) => [
    uniqueIndex("issue_relations_pair_key").on(t.issueId, t.relatedIssueId),
    index("issue_relations_related_idx").on(t.relatedIssueId),
  ],
);

export const issueLinks = pgTable(
  "issue_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    title: text("title"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [index("issue_links_issue_idx").on(t.issueId)],
);

export const issueComments = pgTable(
  "issue_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commentHtml: text("comment_html").notNull(),
    commentStripped: text("comment_stripped").notNull().default(""),
    access: text("access").notNull().default("INTERNAL"),
    editedAt: ts("edited_at"),
    ...audit,
  },
  (t) => [
    index("issue_comments_issue_idx").on(t.issueId, t.createdAt),
    // Workspace search finds a work item by the words of its comments: comment_tsv, a generated
    // column left out of this schema (migration 0020; routes/search/README.md).
  ],
);

export const commentReactions = pgTable(
  "comment_reactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    commentId: uuid("comment_id")
      .notNull()
      .references(() => issueComments.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reaction: text("reaction").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("comment_reactions_key").on(t.commentId, t.actorId, t.reaction)],
);

export const issueReactions = pgTable(
  "issue_reactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reaction: text("reaction").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("issue_reactions_key").on(t.issueId, t.actorId, t.reaction)],
);

export const issueSubscribers = pgTable(
  "issue_subscribers",
  {
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    subscriberId: uuid("subscriber_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.subscriberId] }), index("issue_subscribers_user_idx").on(t.subscriberId)],
);

/** History: every field change (field, verb, old and new value, actor) and comment events. */
export const issueActivities = pgTable(
  "issue_activities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    verb: text("verb").notNull(),
    field: text("field"),
    oldValue: text("old_value"),
    newValue: text("new_value"),
    oldIdentifier: uuid("old_identifier"),
    newIdentifier: uuid("new_identifier"),
    commentId: uuid("comment_id"),
    /** The reference's sentence for the row ("added label ", "updated the state to"…), as it writes it. */
    comment: text("comment").notNull().default(""),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("issue_activities_issue_idx").on(t.issueId, t.createdAt)],
);

/**
 * A work item's description history (GET issues/:id/description-versions/): the description as
 * it was at last_saved_at. Recorded on every REST write of the description and, while it is
 * edited live, at most once per DESCRIPTION_VERSION_INTERVAL_MS (services/description-versions.ts).
 */
export const issueDescriptionVersions = pgTable(
  "issue_description_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    ownedById: uuid("owned_by_id"),
    /** The Yjs state when the version came from the live document; null for a REST write. */
    descriptionBinary: bytea("description_binary"),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    descriptionStripped: text("description_stripped").notNull().default(""),
    lastSavedAt: ts("last_saved_at").notNull().defaultNow(),
    ...audit,
  },
  (t) => [index("issue_description_versions_issue_idx").on(t.issueId, t.lastSavedAt)],
);

/** Uploaded files of every asset kind (attachments, description images, covers, avatars). */
export const fileAssets = pgTable(
  "file_assets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    entityType: text("entity_type").notNull(),
    entityIdentifier: uuid("entity_identifier"),
    storageKey: text("storage_key").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    mimeType: text("mime_type").notNull(),
    isUploaded: boolean("is_uploaded").notNull().default(false),
    /**
     * When the local upload endpoint accepted this asset's signed form: set in the statement
     * that claims the form, so each form is used once (routes/assets/upload.ts).
     */
    uploadReceivedAt: ts("upload_received_at"),
    uploadedAt: ts("uploaded_at"),
    deletedAt: ts("deleted_at"),
    ...audit,
  },
  (t) => [
    index("file_assets_entity_idx").on(t.entityType, t.entityIdentifier),
    index("file_assets_project_idx").on(t.projectId),
  ],
);

// ───────────────────────────── cycles ─────────────────────────────

/**
 * Cycles (product-domain §3 Cycle): time boxes of a project. start_date / end_date are calendar
 * days in the project's timezone (both null for a draft, both set otherwise; ends inclusive).
 * progress_snapshot is {} until the cycle completes, then holds its frozen progress.
 */
export const cycles = pgTable(
  "cycles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    startDate: date("start_date", { mode: "string" }),
    endDate: date("end_date", { mode: "string" }),
    ownedById: uuid("owned_by_id").references(() => users.id, { onDelete: "set null" }),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    viewProps: jsonb("view_props").$type<Record<string, unknown>>().notNull().default({}),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    progressSnapshot: jsonb("progress_snapshot").$type<Record<string, unknown>>().notNull().default({}),
    archivedAt: ts("archived_at"),
    ...audit,
  },
  (t) => [
    index("cycles_project_idx").on(t.projectId),
    index("cycles_workspace_idx").on(t.workspaceId),
    index("cycles_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

/** A work item's cycle: at most one per work item (unique issue_id); moving replaces the row. */
export const cycleIssues = pgTable(
  "cycle_issues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    cycleId: uuid("cycle_id")
      .notNull()
      .references(() => cycles.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [uniqueIndex("cycle_issues_issue_key").on(t.issueId), index("cycle_issues_cycle_idx").on(t.cycleId)],
);

/** Per user and cycle: saved filters, display filters and display properties of its work items. */
export const cycleUserProperties = pgTable(
  "cycle_user_properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    cycleId: uuid("cycle_id")
      .notNull()
      .references(() => cycles.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull().default({}),
    displayFilters: jsonb("display_filters").$type<Record<string, unknown>>().notNull().default({}),
    displayProperties: jsonb("display_properties").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [uniqueIndex("cycle_user_properties_key").on(t.cycleId, t.userId)],
);

/** Per user and project: saved filters, display filters and display properties. */
export const projectUserProperties = pgTable(
  "project_user_properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull().default({}),
    displayFilters: jsonb("display_filters").$type<Record<string, unknown>>().notNull().default({}),
    displayProperties: jsonb("display_properties").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [uniqueIndex("project_user_properties_key").on(t.projectId, t.userId)],
);

// ───────────────────────────── modules ─────────────────────────────

/** Modules: feature groupings of work items (product-domain §3 Module); archived, never soft-deleted. */
export const modules = pgTable(
  "modules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    startDate: date("start_date", { mode: "string" }),
    targetDate: date("target_date", { mode: "string" }),
    status: text("status").notNull().default("planned"),
    leadId: uuid("lead_id").references(() => users.id, { onDelete: "set null" }),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    viewProps: jsonb("view_props").$type<Record<string, unknown>>().notNull().default({}),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    externalSource: text("external_source"),
    externalId: text("external_id"),
    archivedAt: ts("archived_at"),
    ...audit,
  },
  (t) => [
    index("modules_project_idx").on(t.projectId),
    index("modules_workspace_idx").on(t.workspaceId),
    uniqueIndex("modules_project_name_key").on(t.projectId, t.name),
    index("modules_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

export const moduleMembers = pgTable(
  "module_members",
  {
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [primaryKey({ columns: [t.moduleId, t.memberId] }), index("module_members_member_idx").on(t.memberId)],
);

/** A work item's modules: one row per (module, item); an item may be in several modules. */
export const moduleIssues = pgTable(
  "module_issues",
  {
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    issueId: uuid("issue_id")
      .notNull()
      .references(() => issues.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [primaryKey({ columns: [t.moduleId, t.issueId] }), index("module_issues_issue_idx").on(t.issueId)],
);

export const moduleLinks = pgTable(
  "module_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    title: text("title"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [index("module_links_module_idx").on(t.moduleId)],
);

/** Per user and module: saved filters, display filters and display properties of its work items. */
export const moduleUserProperties = pgTable(
  "module_user_properties",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    projectId: uuid("project_id").notNull(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull().default({}),
    displayFilters: jsonb("display_filters").$type<Record<string, unknown>>().notNull().default({}),
    displayProperties: jsonb("display_properties").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [uniqueIndex("module_user_properties_key").on(t.moduleId, t.userId)],
);

// ───────────────────────────── saved views ─────────────────────────────

/**
 * A saved view (product-domain §3 View): a project's (project_id set) or the workspace's
 * (project_id null). access 1 public, 0 private (the owner only); anchor is the publish token
 * (null when unpublished). The name may be empty: clients show "Untitled".
 */
export const issueViews = pgTable(
  "issue_views",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    description: text("description").notNull().default(""),
    filters: jsonb("filters").$type<Record<string, unknown>>().notNull().default({}),
    displayFilters: jsonb("display_filters").$type<Record<string, unknown>>().notNull().default({}),
    displayProperties: jsonb("display_properties").$type<Record<string, unknown>>().notNull().default({}),
    access: integer("access").notNull().default(1),
    isLocked: boolean("is_locked").notNull().default(false),
    anchor: text("anchor"),
    ownedById: uuid("owned_by_id").references(() => users.id, { onDelete: "set null" }),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    archivedAt: ts("archived_at"),
    ...audit,
  },
  (t) => [
    index("issue_views_project_idx").on(t.projectId),
    index("issue_views_workspace_idx").on(t.workspaceId),
    uniqueIndex("issue_views_anchor_key").on(t.anchor),
  ],
);

// ───────────────────────────── pages and live documents ─────────────────────────────

/** Pages: documents co-edited live (page.{id}); access 0 = public (project members), 1 = private (owner). */
export const pages = pgTable(
  "pages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    ownedById: uuid("owned_by_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull().default(""),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    descriptionStripped: text("description_stripped").notNull().default(""),
    descriptionBinary: bytea("description_binary"),
    access: integer("access").notNull().default(0),
    color: text("color").notNull().default(""),
    logoProps: jsonb("logo_props").$type<Record<string, unknown>>().notNull().default({}),
    isLocked: boolean("is_locked").notNull().default(false),
    archivedAt: ts("archived_at"),
    parentId: uuid("parent_id"),
    sortOrder: doublePrecision("sort_order").notNull().default(65535),
    viewProps: jsonb("view_props").$type<Record<string, unknown>>().notNull().default({}),
    ...audit,
  },
  (t) => [
    index("pages_workspace_idx").on(t.workspaceId),
    index("pages_owner_idx").on(t.ownedById),
    // Workspace search: the name's trigrams; the words of name and text live in page_search_texts.
    index("pages_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

/**
 * The words of a page's name and plain text for the workspace search, one row per page, written
 * only by the triggers of migration 0021 when either is written (as issue_search_texts).
 */
export const pageSearchTexts = pgTable(
  "page_search_texts",
  {
    pageId: uuid("page_id")
      .primaryKey()
      .references(() => pages.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    textTsv: tsvector("text_tsv").notNull(),
  },
  (t) => [index("page_search_texts_tsv_idx").using("gin", t.textTsv).with({ fastupdate: false })],
);

/** Which projects a page belongs to (the spec's project_ids). */
export const pageProjects = pgTable(
  "page_projects",
  {
    pageId: uuid("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: uuid("created_by"),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.projectId] }), index("page_projects_project_idx").on(t.projectId)],
);

/** Snapshots of a page's body: while it is edited (at most one every few minutes) and on archive. */
export const pageVersions = pgTable(
  "page_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id").notNull(),
    pageId: uuid("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    ownedById: uuid("owned_by_id"),
    descriptionBinary: bytea("description_binary"),
    descriptionHtml: text("description_html").notNull().default("<p></p>"),
    descriptionStripped: text("description_stripped").notNull().default(""),
    lastSavedAt: ts("last_saved_at").notNull().defaultNow(),
    ...audit,
  },
  (t) => [index("page_versions_page_idx").on(t.pageId, t.lastSavedAt)],
);

/**
 * Write-ahead log of Yjs updates per live document. An update is appended here before the
 * server acknowledges it, so an acknowledged edit survives a crash; compaction folds the log
 * into the document's stored state (pages/issues.description_binary).
 */
export const documentUpdates = pgTable(
  "document_updates",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    documentName: text("document_name").notNull(),
    update: bytea("update").notNull(),
    /** Who sent the update (null: the server's own); a fold without the live document credits them. */
    actorId: uuid("actor_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("document_updates_doc_idx").on(t.documentName, t.id)],
);

// ───────────────────────────── notifications ─────────────────────────────

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    receiverId: uuid("receiver_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    triggeredById: uuid("triggered_by_id").references(() => users.id, { onDelete: "set null" }),
    entityIdentifier: uuid("entity_identifier"),
    entityName: text("entity_name").notNull(),
    title: text("title").notNull(),
    message: text("message"),
    messageHtml: text("message_html").notNull().default(""),
    messageStripped: text("message_stripped").notNull().default(""),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    sender: text("sender").notNull(),
    isMentionedNotification: boolean("is_mentioned_notification").notNull().default(false),
    isInboxIssue: boolean("is_inbox_issue").notNull().default(false),
    readAt: ts("read_at"),
    archivedAt: ts("archived_at"),
    snoozedTill: ts("snoozed_till"),
    ...audit,
  },
  (t) => [
    index("notifications_receiver_ws_idx").on(t.receiverId, t.workspaceId, t.createdAt),
    index("notifications_receiver_unread_idx").on(t.receiverId, t.workspaceId, t.readAt),
  ],
);

// ───────────────────────────── background jobs ─────────────────────────────

/** A durable queue: e-mail now, webhooks and exports later. Survives restarts. */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAfter: ts("run_after").notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at")
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [index("jobs_pending_idx").on(t.status, t.runAfter)],
);

// ───────────────────────────── client mutations ─────────────────────────────

/**
 * The answers of changes sent with an x-client-mutation-id (work-item create and update,
 * comments): a client replaying its offline outbox, or retrying a request that got no answer,
 * gets the stored answer instead of the change applied twice. Kept 30 days per user.
 */
export const clientMutations = pgTable(
  "client_mutations",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mutationId: text("mutation_id").notNull(),
    /** "METHOD /path" of the request: the same id sent to another call is refused. */
    request: text("request").notNull(),
    status: integer("status").notNull(),
    response: jsonb("response").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.mutationId] }),
    index("client_mutations_user_created_idx").on(t.userId, t.createdAt),
  ],
);

// ───────────────────────────── API tokens ─────────────────────────────

/**
 * Personal API tokens of a member in one workspace (routes/api-tokens, public-api/). Only the
 * sha256 of the secret is stored; the secret is shown once, in the create answer. A token acts
 * as its user with that user's current roles, and only in its workspace.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    label: text("label").notNull(),
    description: text("description").notNull().default(""),
    tokenHash: text("token_hash").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    lastUsed: ts("last_used"),
    expiredAt: ts("expired_at"),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userType: integer("user_type").notNull().default(0),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    ...audit,
  },
  (t) => [
    uniqueIndex("api_tokens_token_hash_key").on(t.tokenHash),
    index("api_tokens_workspace_user_idx").on(t.workspaceId, t.userId),
  ],
);

// ───────────────────────────── webhooks ─────────────────────────────

/**
 * A workspace's outgoing webhook (the reference's Webhook): which events it receives, its
 * signing secret, and whether deliveries have been failing (set when a delivery gave up after
 * its retries, cleared by the next success; is_active stays as the admin set it).
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    secretKey: text("secret_key").notNull(),
    project: boolean("project").notNull().default(false),
    issue: boolean("issue").notNull().default(false),
    module: boolean("module").notNull().default(false),
    cycle: boolean("cycle").notNull().default(false),
    issueComment: boolean("issue_comment").notNull().default(false),
    intake: boolean("intake").notNull().default(false),
    failing: boolean("failing").notNull().default(false),
    lastFailureAt: ts("last_failure_at"),
    lastFailureReason: text("last_failure_reason"),
    ...audit,
  },
  (t) => [uniqueIndex("webhooks_workspace_url_key").on(t.workspaceId, t.url)],
);

/** One delivery attempt of a webhook: what was sent and how the receiver answered. */
export const webhookLogs = pgTable(
  "webhook_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The delivery (X-Webhook-Delivery-Id): every attempt of one delivery shares it. */
    deliveryId: uuid("delivery_id").notNull(),
    event: text("event").notNull(),
    action: text("action").notNull(),
    /** "success" or "failed". */
    status: text("status").notNull(),
    attempt: integer("attempt").notNull(),
    durationMs: integer("duration_ms").notNull(),
    responseStatus: integer("response_status"),
    /** The first 1 KB of the receiver's answer. */
    responseBody: text("response_body"),
    error: text("error"),
    /** The exact JSON body sent, so a delivery can be sent again as it was. */
    requestBody: text("request_body").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_logs_webhook_created_idx").on(t.webhookId, t.createdAt)],
);

// ───────────────────────────── exports ─────────────────────────────

/**
 * One export of work items (POST export-issues/, the reference's ExporterHistory): queued, then
 * processing with its progress, then completed with its file in the storage under `key`, or
 * failed with `reason`. The file is kept 7 days; the expiry sweep deletes it and sets
 * `expired_at` (routes/exports/README.md).
 */
export const exporterHistory = pgTable(
  "exporter_history",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull().default("issue_exports"),
    /** The projects asked for (all the requester's live projects when none was named). */
    projectIds: uuid("project_ids").array().notNull(),
    /** "csv", "xlsx" or "json". */
    provider: text("provider").notNull(),
    /** The reference's `multiple` (a file per project, zipped, there), kept as sent: every export here is one file. */
    multiple: boolean("multiple").notNull().default(false),
    /** "queued", "processing", "completed" or "failed". */
    status: text("status").notNull().default("queued"),
    reason: text("reason").notNull().default(""),
    /** Work items written so far, and how many the export holds (known once it starts). */
    exportedItems: integer("exported_items").notNull().default(0),
    totalItems: integer("total_items"),
    /** The file in the storage, its name for the download, and its size in bytes. */
    key: text("key"),
    fileName: text("file_name"),
    size: integer("size"),
    token: text("token").notNull(),
    initiatedById: uuid("initiated_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    completedAt: ts("completed_at"),
    /** Set when the file was deleted after its 7 days. */
    expiredAt: ts("expired_at"),
    ...audit,
  },
  (t) => [
    index("exporter_history_workspace_created_idx").on(t.workspaceId, t.createdAt),
    index("exporter_history_expiry_idx").on(t.status, t.completedAt),
  ],
);
