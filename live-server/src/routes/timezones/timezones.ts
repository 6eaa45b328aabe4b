/**
 * The time-zone list a picker offers (workspace and project settings, profile): every zone the
 * runtime knows (Intl.supportedValuesOf), under its current IANA name, with its offset now.
 * Shape and order follow the reference: { utc_offset: "UTC+05:30", gmt_offset: "GMT+05:30",
 * value: "Asia/Kolkata", label: "Kolkata" }, sorted by offset, then label.
 */

/**
 * ICU still lists some zones under their former names; the pickers (and the reference) use the
 * current ones. Both spellings are accepted wherever a time zone is validated (Intl).
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

export type TimezoneOption = { utc_offset: string; gmt_offset: string; value: string; label: string };

/** One formatter per zone, kept: building them is most of the cost (~0.3 ms each). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** "+05:30" for the zone at `at`, and the offset in minutes (for sorting). */
function offsetOf(zone: string, at: Date): { text: string; minutes: number } {
  const part = formatterOf(zone)
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  // "GMT+05:30", "GMT-03:30", or plain "GMT" at zero.
  const match = /^GMT([+-])(\d{1,2}):?(\d{2})?$/.exec(part ?? "");
  if (!match) return { text: "+00:00", minutes: 0 };
  const sign = match[1] === "-" ? -1 : 1;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? "0");
  return {
    text: `${match[1]}${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`,
    minutes: sign * (hours * 60 + minutes),
  };
}

/** "America/Argentina/Buenos_Aires" → "Buenos Aires (Argentina)"; "Asia/Ho_Chi_Minh" → "Ho Chi Minh". */
function labelOf(zone: string): string {
  const parts = zone.split("/").map((p) => p.replaceAll("_", " "));
  const city = parts.at(-1) ?? zone;
  return parts.length > 2 ? `${city} (${parts.slice(1, -1).join(", ")})` : city;
}

/** Every zone with its offset at `at`, sorted by offset then label. */
export function timezoneOptions(at: Date = new Date()): TimezoneOption[] {
  const names = new Set(Intl.supportedValuesOf("timeZone").map((zone) => CURRENT_NAMES[zone] ?? zone));
  names.add("UTC");
  return [...names]
    .map((zone) => {
      const offset = offsetOf(zone, at);
      return {
        minutes: offset.minutes,
        option: {
          utc_offset: `UTC${offset.text}`,
          gmt_offset: `GMT${offset.text}`,
          value: zone,
          label: labelOf(zone),
        },
      };
    })
    .sort((a, b) => a.minutes - b.minutes || a.option.label.localeCompare(b.option.label))
    .map((entry) => entry.option);
}
