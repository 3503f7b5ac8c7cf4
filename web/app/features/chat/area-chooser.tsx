// Nobody waits on a screen that cannot change by itself: when LinkUp does not know where a person is (location
// denied, onboarding skipped, no town), the chat asks, right there, for a position or a town, and joins the
// area room the moment one is given. The town form posts to /chat's action, so it works before JavaScript too.
import { useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { HttpError } from "../../../../core/http";
import { PLACES } from "../../../../core/places";
import type { RoomsAnswer } from "../../../../core/rooms";
import { currentPosition, joinNearby } from "./rooms";
import { useT } from "../../i18n";
import { type Refusal, refusalOf } from "../../i18n/refusal";

/** The chat action's answer to a town LinkUp cannot place (its catalog key: the API knows no town list). */
export const UNKNOWN_TOWN = { key: "api.unknownTown" } as const;

export function AreaChooser({ problem, onJoined }: { problem: Refusal | null; onJoined: (rooms: RoomsAnswer) => void }) {
  const [busy, setBusy] = useState<"location" | null>(null);
  const t = useT();
  // The town form posts to /chat's action (with or without JavaScript), which saves the town and joins its
  // room, then reloads the chat's rooms; it answers with the error to show when the town is unknown.
  const fetcher = useFetcher<{ error?: Refusal | null }>();
  const posted = useActionData<{ error?: Refusal | null }>()?.error ?? null;
  const [error, setError] = useState<Refusal | null>(null);
  const shownError = error ?? fetcher.data?.error ?? posted;
  const choosing = fetcher.state !== "idle";

  const shareLocation = async () => {
    setBusy("location");
    setError(null);
    try {
      const position = await currentPosition(15_000);
      if (!position) {
        setError(t("area.noLocation"));
        return;
      }
      const answer = await joinNearby(position);
      onJoined(answer);
      if (!answer.nearby) setError({ key: "errors.no_area" });
    } catch (e) {
      setError((e instanceof HttpError && refusalOf(e.json)) || { key: "area.unreachable" });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card area-chooser" aria-labelledby="area-chooser-title">
      <h2 id="area-chooser-title">{t("area.title")}</h2>
      <p>{problem ? t.error(problem) : t("area.intro")}</p>
      <button type="button" className="btn btn-primary" onClick={shareLocation} disabled={busy !== null}>
        {busy === "location" ? t("area.locating") : t("area.shareLocation")}
      </button>
      {/* Right under the button that was tapped, where the person is looking (issue 32), not below the town form. */}
      {error ? (
        <p role="alert" className="text-danger">
          {t.error(error)}
        </p>
      ) : null}
      <fetcher.Form method="post" action="/chat" className="form" onSubmit={() => setError(null)}>
        <input type="hidden" name="intent" value="set-town" />
        <label>
          {t("area.town")}
          <input name="town" list="area-towns" required maxLength={120} autoComplete="address-level2" />
        </label>
        <datalist id="area-towns">
          {PLACES.map((p) => (
            <option key={p.name} value={p.name} />
          ))}
        </datalist>
        <button type="submit" className="btn" disabled={busy !== null || choosing}>
          {choosing ? t("area.joining") : t("area.join")}
        </button>
      </fetcher.Form>
      {!error && shownError ? (
        <p role="alert" className="text-danger">
          {t.error(shownError)}
        </p>
      ) : null}
    </section>
  );
}
