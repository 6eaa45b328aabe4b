/** Project network (visibility): private 0, public 2 (product-domain §3). */
export const NETWORK = { private: 0, public: 2 } as const;
export type Network = (typeof NETWORK)[keyof typeof NETWORK];

/** Fixed order of state groups (product-domain §4). */
export const STATE_GROUPS = ["backlog", "unstarted", "started", "completed", "cancelled"] as const;
export type StateGroup = (typeof STATE_GROUPS)[number];

/** The five states every new project starts with; Backlog is the default. */
export const DEFAULT_STATES: readonly {
  name: string;
  group: StateGroup;
  color: string;
  sequence: number;
  default: boolean;
}[] = [
  { name: "Backlog", group: "backlog", color: "#60646C", sequence: 15000, default: true },
  { name: "Todo", group: "unstarted", color: "#60646C", sequence: 25000, default: false },
  { name: "In Progress", group: "started", color: "#F59E0B", sequence: 35000, default: false },
  { name: "Done", group: "completed", color: "#46A758", sequence: 45000, default: false },
  { name: "Cancelled", group: "cancelled", color: "#9AA4BC", sequence: 55000, default: false },
];

/** Feature flags a project can switch on or off, with their defaults. */
export const PROJECT_FEATURES = {
  cycle_view: true,
  module_view: true,
  issue_views_view: true,
  page_view: true,
  inbox_view: false,
  is_time_tracking_enabled: false,
  is_epic_enabled: false,
} as const;
export type ProjectFeature = keyof typeof PROJECT_FEATURES;

/**
 * The project features Tideline has today. Only these are shown (and switchable) on the
 * project's features screen and linked under the project in the sidebar; the API reports every
 * other flag as off and refuses to switch one on (400 FEATURE_UNAVAILABLE). The stored flags
 * and their defaults stay as the reference has them, so the domain that builds a feature turns
 * it on by adding its flag here: cycles → cycle_view, modules → module_view, saved views →
 * issue_views_view, intake → inbox_view, epics → is_epic_enabled, time tracking →
 * is_time_tracking_enabled (a paid feature besides: see projects/service.ts).
 */
export const AVAILABLE_PROJECT_FEATURES: readonly ProjectFeature[] = [
  "cycle_view",
  "module_view",
  "issue_views_view",
  "page_view",
  "inbox_view",
  "is_epic_enabled",
];

export function isProjectFeatureAvailable(feature: ProjectFeature): boolean {
  return AVAILABLE_PROJECT_FEATURES.includes(feature);
}

/** The product's name of each feature, for messages ("Cycles aren't available yet"). */
export const PROJECT_FEATURE_NAMES: Readonly<Record<ProjectFeature, string>> = {
  cycle_view: "Cycles",
  module_view: "Modules",
  issue_views_view: "Views",
  page_view: "Pages",
  inbox_view: "Intake",
  is_time_tracking_enabled: "Time tracking",
  is_epic_enabled: "Epics",
};

/** Ten default project colours and twelve default emoji (product-domain §9). */
export const PROJECT_COLORS = [
  "#FF6B00",
  "#8CC1FF",
  "#FCBE1D",
  "#18904F",
  "#ADF672",
  "#05C3FF",
  "#5F5F5F",
  "#8B5CF6",
  "#EC4899",
  "#EF4444",
] as const;
export const PROJECT_EMOJIS = ["🚀", "🎯", "📦", "🛠️", "🧭", "📈", "💡", "🧪", "🌱", "⚡", "🎨", "🔥"] as const;

/** Project cover presets: gradients we ship (no third-party photo host is reachable offline). */
export const PROJECT_COVERS = [
  "linear-gradient(135deg,#667eea,#764ba2)",
  "linear-gradient(135deg,#f093fb,#f5576c)",
  "linear-gradient(135deg,#4facfe,#00f2fe)",
  "linear-gradient(135deg,#43e97b,#38f9d7)",
  "linear-gradient(135deg,#fa709a,#fee140)",
  "linear-gradient(135deg,#30cfd0,#330867)",
  "linear-gradient(135deg,#a8edea,#fed6e3)",
  "linear-gradient(135deg,#5ee7df,#b490ca)",
  "linear-gradient(135deg,#d299c2,#fef9d7)",
  "linear-gradient(135deg,#f6d365,#fda085)",
  "linear-gradient(135deg,#96fbc4,#f9f586)",
  "linear-gradient(135deg,#2af598,#009efd)",
  "linear-gradient(135deg,#cd9cf2,#f6f3ff)",
  "linear-gradient(135deg,#e0c3fc,#8ec5fc)",
  "linear-gradient(135deg,#f43b47,#453a94)",
  "linear-gradient(135deg,#0ba360,#3cba92)",
] as const;

export const ORGANIZATION_SIZES = ["Just myself", "2-10", "11-50", "51-200", "201-500", "500+"] as const;

export const PROJECT_IDENTIFIER_MAX = 12;
