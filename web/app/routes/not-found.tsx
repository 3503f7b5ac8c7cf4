import { data } from "react-router";

// Any unknown path: a real 404 status, rendered by the root error boundary as '404 Page Not Found'.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
