import { Link } from "react-router";
import { FileSharingScreen } from "../features/files/file-sharing";
import { loadFileSharing } from "../features/files/file-sharing.server";
import type { Route } from "./+types/file-sharing";

export const meta: Route.MetaFunction = () => [{ title: "File Sharing — LinkUp" }];

export function loader({ context }: Route.LoaderArgs) {
  return loadFileSharing(context);
}

export default function FileSharing({ loaderData }: Route.ComponentProps) {
  const { user, files, rooms } = loaderData;
  if (!user)
    return (
      <section className="card">
        <h1>File Sharing</h1>
        <p>Share files with the people in your chats, encrypted on your device. Start LinkUp to send and receive files.</p>
        <Link to="/signup-verification" className="btn btn-primary">
          Start LinkUp
        </Link>
      </section>
    );
  return <FileSharingScreen user={user} files={files} rooms={rooms} />;
}
