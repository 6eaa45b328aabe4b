/**
 * "Save as view" beside a filtered board's chips: opens the view form with the board's filters,
 * display and properties, and goes to the new view once saved.
 */
import { BookmarkPlus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "../../components/ui";
import type { ViewSettings } from "./view-logic";
import { ViewModal } from "./view-modal";
import { viewUrl } from "./view-urls";
import "./views.css";

export function SaveAsViewButton({
  slug,
  projectId,
  settings,
}: {
  slug: string;
  projectId: string;
  settings: ViewSettings;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" className="vw-save-as" onClick={() => setOpen(true)}>
        <BookmarkPlus size={14} aria-hidden />
        {t("views.saveAs.button")}
      </Button>
      <ViewModal
        open={open}
        onOpenChange={setOpen}
        slug={slug}
        projectId={projectId}
        settings={settings}
        onSaved={(view) => {
          toast.success(t("views.saveAs.saved"));
          navigate(viewUrl(slug, projectId, view.id));
        }}
      />
    </>
  );
}
