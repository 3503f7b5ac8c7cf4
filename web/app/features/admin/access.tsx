// The error page of the staff and admin screens (their guard is access.server.ts).
import { isRouteErrorResponse, Link } from "react-router";
import { useT } from "../../i18n";

/** The error page of a staff or admin screen: 401 offers verification, 403 says whose screen it is. */
export function AccessErrorPage({
  error,
  title,
  refusedTitle,
  fallback,
}: {
  error: unknown;
  title: string;
  refusedTitle: string;
  fallback: string;
}) {
  const message = isRouteErrorResponse(error) && typeof error.data?.message === "string" ? error.data.message : fallback;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const t = useT();
  return (
    <section className="card">
      <h1>{status === 403 ? refusedTitle : status === 401 ? t("access.signIn") : title}</h1>
      <p role="alert">{t.error(message)}</p>
      {status === 401 ? (
        <Link to="/signup-verification?step=verify-phone" className="btn btn-primary">
          {t("sec.verifyPhone")}
        </Link>
      ) : (
        <Link to="/" className="btn">
          {t("access.back")}
        </Link>
      )}
    </section>
  );
}
