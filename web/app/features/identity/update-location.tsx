// /settings' "Update Location" button: it needs the browser's position, so it loads after the page, with the
// request code it needs, and keeps the settings screen's first load small (bench/README.md, bundle).
import { useState } from "react";
import { useRevalidator } from "react-router";
import { apiRequest, HttpError } from "../../../../core/http";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";

export function UpdateLocation() {
  const toast = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const t = useT();
  const update = () => {
    if (!navigator.geolocation) {
      toast({ title: t("set.loc.unavailable"), description: t("set.loc.noBrowser"), variant: "destructive" });
      return;
    }
    setBusy(true);
    navigator.geolocation.getCurrentPosition(
      async (pos) => {
        try {
          await apiRequest("PUT", "/api/me/location", { latitude: pos.coords.latitude, longitude: pos.coords.longitude });
          toast({ title: t("set.loc.updated"), description: t("set.loc.updatedBody"), variant: "success" });
          revalidator.revalidate();
        } catch (e) {
          toast({
            title: t("set.loc.notSaved"),
            description: t.error(e instanceof HttpError ? e : String(e)),
            variant: "destructive",
          });
        } finally {
          setBusy(false);
        }
      },
      (err) => {
        setBusy(false);
        toast({
          title: t("set.loc.unavailable"),
          description: err.code === err.PERMISSION_DENIED ? t("sos.locationRefused") : t("sos.locationNotFound"),
          variant: "destructive",
        });
      },
      { timeout: 15000 },
    );
  };
  return (
    <button type="button" className="btn btn-ghost" onClick={update} disabled={busy}>
      {busy ? t("area.locating") : t("set.updateLocation")}
    </button>
  );
}
