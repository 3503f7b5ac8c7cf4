// The error page of the staff and admin screens (their guard is access.server.ts).
import { isRouteErrorResponse, Link } from "react-router";

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
  return (
    <section className="card">
      <h1>{status === 403 ? refusedTitle : status === 401 ? "Sign In Required" : title}</h1>
      <p role="alert">{message}</p>
      {status === 401 ? (
        <Link to="/signup-verification?step=verify-phone" className="btn btn-primary">
          Verify your phone
        </Link>
      ) : (
        <Link to="/" className="btn">
          Back to LinkUp
        </Link>
      )}
    </section>
  );
}
