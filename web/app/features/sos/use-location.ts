// The device's location, when the user allows it. Reported to the server (PUT /api/me/location) so the
// user's area is current: that is how an SOS nearby reaches them.
import { useCallback, useEffect, useState } from "react";

export type LocationState =
  | { status: "idle" | "locating" | "unsupported" }
  | { status: "denied"; message: { key: "sos.locationRefused" | "sos.locationNotFound" } }
  | { status: "ok"; latitude: number; longitude: number; accuracy: number };

export function useDeviceLocation(opts: { report: boolean }) {
  const [state, setState] = useState<LocationState>({ status: "idle" });

  const locate = useCallback(() => {
    if (!("geolocation" in navigator)) {
      setState({ status: "unsupported" });
      return;
    }
    setState({ status: "locating" });
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        const { latitude, longitude, accuracy } = pos.coords;
        setState({ status: "ok", latitude, longitude, accuracy });
        if (opts.report)
          fetch("/api/me/location", {
            method: "PUT",
            credentials: "include",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ latitude, longitude }),
          }).catch((e) => console.warn("location report", e));
      },
      (err) =>
        setState({
          status: "denied",
          message: { key: err.code === err.PERMISSION_DENIED ? "sos.locationRefused" : "sos.locationNotFound" },
        }),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  }, [opts.report]);

  // Already allowed earlier: locate straight away, without asking again.
  useEffect(() => {
    navigator.permissions
      ?.query({ name: "geolocation" })
      .then((p) => {
        if (p.state === "granted") locate();
      })
      .catch(() => {});
  }, [locate]);

  return { state, locate };
}
