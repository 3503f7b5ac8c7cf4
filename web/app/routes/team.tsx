// /team: an Enterprise subscriber's organisation (docs/decisions/067-enterprise-teams.md). Start a team, join one
// with an invitation code, and, by role, invite, remove, change roles and settings. The server decides every right
// (core/teams.ts `teamRights` through /api/team); the forms post, so the page works without JavaScript.
import { Form, Link } from "react-router";
import type { MessageKey } from "../../../core/i18n/en";
import { formatDate } from "../../../core/i18n/translate";
import { LANGUAGE_NATIVE_NAMES, UI_LANGUAGES } from "../../../core/i18n/languages";
import { DISAPPEAR_MS, type DisappearTimer } from "../../../core/disappearing-timers";
import { INVITE_DAYS, TEAM_SEATS, TEAM_SUPPORT_RESPONSE_HOURS, type TeamInfo, type TeamRole, type TeamUsage } from "../../../core/teams";
import { type TeamActionData, teamAction, teamLoader } from "../features/teams/team.server";
import { metaTitle, type T, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/team";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "team.metaTitle", "Team — LinkUp") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return teamLoader(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return teamAction(request, context);
}

const ROLE_KEYS: Record<TeamRole, MessageKey> = { owner: "team.role.owner", admin: "team.role.admin", member: "team.role.member" };

function Refusal({ result, intent }: { result: TeamActionData | undefined; intent: string }) {
  const t = useT();
  if (!result || result.ok || result.intent !== intent) return null;
  return (
    <p role="alert" className="text-danger">
      {t.error(result.code ? { error: result.error, code: result.code } : { key: "error.somethingWrong" })}
    </p>
  );
}

function Intent({ value }: { value: string }) {
  return <input type="hidden" name="intent" value={value} />;
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const user = useRootData()?.user;
  const { answer, code } = loaderData;
  if (!answer || !user) {
    return (
      <section className="card" aria-labelledby="team-title">
        <h1 id="team-title">{t("team.title")}</h1>
        <p>{t("team.signIn")}</p>
        <Link to="/signup-verification" className="btn btn-primary">
          {t("team.signInLink")}
        </Link>
      </section>
    );
  }
  const result = actionData as TeamActionData | undefined;
  if (answer.team) return <TeamPage team={answer.team} result={result} appUrl={loaderData.appUrl} />;
  const verified = user.authMode === "verified";
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="team-title">
      <h1 id="team-title">{t("team.title")}</h1>
      {result?.ok && result.intent === "leave" ? <p role="status">{t("team.left")}</p> : null}
      <p>{t("team.about", { seats: TEAM_SEATS })}</p>
      {answer.canCreate ? (
        <Form method="post" className="form" aria-labelledby="team-create">
          <h2 id="team-create">{t("team.createTitle")}</h2>
          <Intent value="create" />
          <label>
            {t("team.name")}
            <input name="name" required maxLength={60} autoComplete="organization" />
          </label>
          <Refusal result={result} intent="create" />
          <button type="submit" className="btn btn-primary">
            {t("team.create")}
          </button>
        </Form>
      ) : (
        <p>
          {t("team.needsEnterprise")} <Link to="/pricing">{t("team.seePricing")}</Link>
        </p>
      )}
      <Form method="post" className="form" aria-labelledby="team-join">
        <h2 id="team-join">{t("team.joinTitle")}</h2>
        <Intent value="join" />
        {verified ? null : (
          <p>
            {t("team.verifyFirst")} <Link to="/signup-verification?step=verify-phone">{t("team.verifyLink")}</Link>
          </p>
        )}
        <label>
          {t("team.code")}
          <input
            name="code"
            required
            maxLength={40}
            autoComplete="one-time-code"
            autoCapitalize="characters"
            defaultValue={result && !result.ok ? (result.code_typed ?? code) : code}
          />
        </label>
        <Refusal result={result} intent="join" />
        <button type="submit" className="btn btn-primary">
          {t("team.join")}
        </button>
      </Form>
    </section>
  );
}

function TeamPage({ team, result, appUrl }: { team: TeamInfo; result: TeamActionData | undefined; appUrl: string }) {
  const t = useT();
  const user = useRootData()?.user;
  const rights = team.rights;
  return (
    <section className="grid gap-[0.6rem]" aria-labelledby="team-title">
      <div className="card grid gap-[0.6rem]">
        <h1 id="team-title">{team.name}</h1>
        {result?.ok && result.intent === "join" ? <p role="status">{t("team.joined", { team: team.name })}</p> : null}
        <p>
          {t("team.yourRole", { role: t(ROLE_KEYS[team.myRole]) })} · {t("team.seats", { taken: team.seatsTaken, seats: team.seats })}
        </p>
        {team.active ? null : <p className="text-danger">{t("team.inactive")}</p>}
        {team.roomId ? (
          <p>
            <Link to={`/chat?room=${encodeURIComponent(team.roomId)}`} className="btn btn-primary">
              {t("team.room")}
            </Link>{" "}
            <span className="text-muted text-sm">{t("team.roomNote")}</span>
          </p>
        ) : null}
      </div>
      <div className="card grid gap-[0.6rem]">
        <h2>{t("team.members")}</h2>
        <Refusal result={result} intent="remove" />
        <Refusal result={result} intent="role" />
        <ul className="grid gap-[0.6rem]">
          {team.members.map((m) => (
            <li key={m.userId}>
              <strong>{m.nickname}</strong> {m.userId === user?.id ? t("team.you") : null}{" "}
              <span className="tag">{t(ROLE_KEYS[m.role])}</span> {m.phone ? <span className="text-muted text-sm">{m.phone}</span> : null}
              {m.role !== "owner" && m.userId !== user?.id ? (
                <span className="flex flex-wrap items-center gap-2">
                  {rights.changeRoles ? (
                    <Form method="post">
                      <Intent value="role" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <input type="hidden" name="role" value={m.role === "admin" ? "member" : "admin"} />
                      <button
                        type="submit"
                        className="btn btn-ghost"
                        aria-label={t(m.role === "admin" ? "team.makeMemberLabel" : "team.makeAdminLabel", { name: m.nickname })}
                      >
                        {t(m.role === "admin" ? "team.makeMember" : "team.makeAdmin")}
                      </button>
                    </Form>
                  ) : null}
                  {(m.role === "admin" ? rights.removeAdmins : rights.removeMembers) ? (
                    <Form method="post">
                      <Intent value="remove" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <button type="submit" className="btn btn-ghost" aria-label={t("team.removeLabel", { name: m.nickname })}>
                        {t("team.remove")}
                      </button>
                    </Form>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
      {team.usage ? <Usage usage={team.usage} t={t} /> : null}
      {rights.invite ? <Invites team={team} result={result} appUrl={appUrl} t={t} /> : null}
      {rights.changeSettings ? (
        <Form method="post" className="card form" aria-labelledby="team-settings">
          <h2 id="team-settings">{t("team.settingsTitle")}</h2>
          <Intent value="settings" />
          {result?.ok && result.intent === "settings" ? <p role="status">{t("team.saved")}</p> : null}
          <label>
            {t("team.name")}
            <input name="name" required maxLength={60} defaultValue={team.name} />
          </label>
          <label>
            {t("team.policy")}
            <select name="invitePolicy" defaultValue={team.invitePolicy}>
              <option value="admins">{t("team.policy.admins")}</option>
              <option value="members">{t("team.policy.members")}</option>
            </select>
          </label>
          <label className="check">
            <input type="checkbox" name="seatFeatures" defaultChecked={team.seatFeatures} /> {t("team.seatFeatures")}
          </label>
          <label>
            {t("team.language")}
            <select name="language" defaultValue={team.language ?? ""}>
              <option value="">{LANGUAGE_NATIVE_NAMES.english}</option>
              {UI_LANGUAGES.filter((l) => l !== "english").map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NATIVE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
          <p className="text-muted text-sm">{t("team.languageHint")}</p>
          <label>
            {t("team.retention")}
            <select name="retention" defaultValue={team.retention}>
              {RETENTION.map((r) => (
                <option key={r} value={r}>
                  {t(`dis.${r}`)}
                </option>
              ))}
            </select>
          </label>
          <p className="text-muted text-sm">{t("team.retentionHint")}</p>
          <Refusal result={result} intent="settings" />
          <button type="submit" className="btn btn-primary">
            {t("team.save")}
          </button>
        </Form>
      ) : null}
      <div className="card grid gap-[0.6rem]">
        <h2>{t("team.supportTitle")}</h2>
        <p>{t("team.support")}</p>
        {team.supportStaff ? <p>{t("team.support.named", { name: team.supportStaff })}</p> : null}
        <p>
          {t("team.support.target", { hours: TEAM_SUPPORT_RESPONSE_HOURS })} <Link to="/customer-service">{t("team.support.hours")}</Link>
        </p>
        <p>
          <Link to="/support">{t("team.supportLink")}</Link>
        </p>
      </div>
      {rights.leave ? (
        <Form method="post" className="card">
          <Intent value="leave" />
          <Refusal result={result} intent="leave" />
          <button type="submit" className="btn btn-ghost">
            {t("team.leave")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

const RETENTION = Object.keys(DISAPPEAR_MS) as DisappearTimer[];

function Usage({ usage, t }: { usage: TeamUsage; t: T }) {
  const rows: [string, string][] = [
    [t("team.usage.members"), String(usage.members)],
    [t("team.usage.admins"), String(usage.admins)],
    [t("team.usage.openInvites"), String(usage.openInvites)],
    [t("team.usage.roomMessages"), String(usage.roomMessages)],
    [
      t("team.usage.lastMessage"),
      usage.lastMessageAt
        ? formatDate(usage.lastMessageAt, t.tag, { day: "numeric", month: "long", hour: "numeric", minute: "2-digit" })
        : t("team.usage.none"),
    ],
  ];
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="team-usage">
      <h2 id="team-usage">{t("team.usage.title")}</h2>
      <dl>
        {rows.map(([term, value]) => (
          <div key={term} className="flex flex-wrap items-center gap-2">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-muted text-sm">{t("team.usage.note")}</p>
    </section>
  );
}

function Invites({ team, result, appUrl, t }: { team: TeamInfo; result: TeamActionData | undefined; appUrl: string; t: T }) {
  const made = result?.ok && result.intent === "invite" ? result.invite : undefined;
  const day = (iso: string) => formatDate(iso, t.tag, { day: "numeric", month: "long", hour: "numeric", minute: "2-digit" });
  return (
    <div className="card grid gap-[0.6rem]">
      <Form method="post" className="form" aria-labelledby="team-invite">
        <h2 id="team-invite">{t("team.inviteTitle")}</h2>
        <Intent value="invite" />
        <p className="text-muted text-sm">{t("team.inviteHint", { days: INVITE_DAYS })}</p>
        <label>
          {t("team.invitePhone")}
          <input name="phone" type="tel" autoComplete="off" maxLength={30} />
        </label>
        <Refusal result={result} intent="invite" />
        <button type="submit" className="btn btn-primary">
          {t("team.invite")}
        </button>
      </Form>
      {made ? (
        <p role="status">
          {t("team.codeMade", { code: made.code, date: day(made.invite.expiresAt) })}{" "}
          <output aria-label={t("team.code")} className="code">
            {made.code}
          </output>{" "}
          <Link to={`/team?code=${encodeURIComponent(made.code)}`}>{`${appUrl}/team?code=${made.code}`}</Link>
        </p>
      ) : null}
      {team.invites.length ? (
        <>
          <h3>{t("team.openInvites")}</h3>
          <Refusal result={result} intent="withdraw" />
          <ul className="grid gap-[0.6rem]">
            {team.invites.map((i) => {
              const who = i.phone ? t("team.inviteFor", { phone: i.phone }) : t("team.inviteAnyone");
              return (
                <li key={i.id}>
                  {who} · {t("team.expires", { date: day(i.expiresAt) })}
                  <Form method="post">
                    <Intent value="withdraw" />
                    <input type="hidden" name="inviteId" value={i.id} />
                    <button type="submit" className="btn btn-ghost" aria-label={t("team.withdrawLabel", { who })}>
                      {t("team.withdraw")}
                    </button>
                  </Form>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </div>
  );
}
