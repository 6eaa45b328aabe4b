import { AlertCircle, CheckCircle2, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";

const ICONS = { error: AlertCircle, info: Info, success: CheckCircle2, warning: TriangleAlert };

export function Banner({ kind = "error", children }: { kind?: keyof typeof ICONS; children: ReactNode }) {
  const Icon = ICONS[kind];
  return (
    <div className={`banner banner-${kind}`} role={kind === "error" ? "alert" : "status"}>
      <Icon size={16} style={{ flexShrink: 0, marginTop: 1 }} aria-hidden />
      <div>{children}</div>
    </div>
  );
}
