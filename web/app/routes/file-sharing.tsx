import { Link } from "react-router";
import { FileSharingScreen } from "../features/files/file-sharing";
import { loadFileSharing } from "../features/files/file-sharing.server";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/file-sharing";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "files.metaTitle", "File Sharing — LinkUp") }];

export function loader({ context }: Route.LoaderArgs) {
  return loadFileSharing(context);
}

export default function FileSharing({ loaderData }: Route.ComponentProps) {
  const { user, files, rooms } = loaderData;
  const t = useT();
  if (!user)
    return (
      <section className="card">
        <h1>{t("files.title")}</h1>
        <p>{t("files.startIntro")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("files.start")}
        </Link>
      </section>
    );
  return <FileSharingScreen user={user} files={files} rooms={rooms} />;
}
