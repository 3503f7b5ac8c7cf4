// /machine-learning (docs/product/screens.md): tabs routing, prediction and optimization, telling what the
// assistant really runs (docs/decisions/005-assistant-models.md), with live use counted on the server.
import { Link } from "react-router";
import { LANGUAGES } from "../../../core/ai-command";
import { AI_TIMEOUT_MS, type AssistantUsageStats, INSTRUCT_MODEL, SPEECH_MODEL, TRANSLATION_MODEL } from "../../../core/assistant-models";
import { TIER_LIMITS } from "../../../core/constants";
import type { MessageKey } from "../../../core/i18n/en";
import { TabLinks, useQueryTab } from "../components/tabs";
import { metaTitle, type T, useT } from "../i18n";
import { apiGet } from "../lib/api.server";
import type { Route } from "./+types/machine-learning";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "ml.metaTitle", "Machine Learning — LinkUp") }];

export async function loader({ context }: Route.LoaderArgs) {
  return { usage: (await apiGet<AssistantUsageStats>(context, "/api/stats/assistant")) as AssistantUsageStats };
}

const TABS = [
  { id: "routing", label: "ml.tab.routing" },
  { id: "prediction", label: "ml.tab.prediction" },
  { id: "optimization", label: "ml.tab.optimization" },
] as const satisfies readonly { id: string; label: MessageKey }[];

const limit = (t: T, v: number | null) => (v === null ? t("ml.unlimited") : v.toLocaleString(t.tag));

function Routing() {
  const t = useT();
  const rows = [
    { task: t("ml.task.chat"), model: INSTRUCT_MODEL },
    { task: t("ml.task.translationIntl"), model: TRANSLATION_MODEL },
    { task: t("ml.task.translationLocal"), model: t("ml.promptedTranslator", { model: INSTRUCT_MODEL }) },
    { task: t("ml.task.voice"), model: SPEECH_MODEL },
  ];
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="routing-title">
      <h2 id="routing-title">{t("ml.routingTitle")}</h2>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t("ml.task")}</th>
            <th scope="col">{t("ml.model")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.task}>
              <td>{r.task}</td>
              <td>
                <code>{r.model}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul>
        <li>{t("ml.phrasebook", { count: Object.keys(LANGUAGES).length })}</li>
        <li>{t("ml.vetted")}</li>
        <li>{t("ml.timeout", { seconds: AI_TIMEOUT_MS / 1000 })}</li>
      </ul>
    </section>
  );
}

function Prediction() {
  const t = useT();
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="prediction-title">
      <h2 id="prediction-title">{t("ml.predictionTitle")}</h2>
      <p>{t("ml.prediction.public", { model: INSTRUCT_MODEL })}</p>
      <p>{t("ml.prediction.private")}</p>
      <p className="text-sm text-muted">{t("ml.prediction.accuracy")}</p>
    </section>
  );
}

function Optimization() {
  const t = useT();
  return (
    <section className="card grid gap-[0.6rem]" aria-labelledby="optimization-title">
      <h2 id="optimization-title">{t("ml.optimizationTitle")}</h2>
      <ul>
        <li>
          {t("ml.limits", {
            aiCommands: limit(t, TIER_LIMITS.free.aiCommands),
            translations: limit(t, TIER_LIMITS.free.translations),
            premiumCommands: limit(t, TIER_LIMITS.premium.aiCommands),
            voice: limit(t, TIER_LIMITS.premium.voiceMessages),
          })}
        </li>
        <li>{t("ml.limit.realAnswers")}</li>
        <li>{t("ml.limit.server")}</li>
        <li>{t("ml.limit.offline")}</li>
      </ul>
    </section>
  );
}

export default function MachineLearning({ loaderData }: Route.ComponentProps) {
  const { usage } = loaderData;
  const [tab, setTab] = useQueryTab(TABS);
  const t = useT();
  const n = (v: number) => v.toLocaleString(t.tag);
  return (
    <div className="grid gap-[0.6rem]">
      <section className="grid gap-3 py-6 [&_h1]:text-hero">
        <h1>{t("ml.title")}</h1>
        <p>{t("ml.intro")}</p>
      </section>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">{t("ml.usageTitle")}</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("ml.use")}</th>
              <th scope="col">{t("ml.last7")}</th>
              <th scope="col">{t("ml.allTime")}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t("ml.questions")}</th>
              <td>{n(usage.lastSevenDays.aiCommands)}</td>
              <td>{n(usage.allTime.aiCommands)}</td>
            </tr>
            <tr>
              <th scope="row">{t("ml.translations")}</th>
              <td>{n(usage.lastSevenDays.translations)}</td>
              <td>{n(usage.allTime.translations)}</td>
            </tr>
            <tr>
              <th scope="row">{t("ml.voiceMessages")}</th>
              <td>{n(usage.lastSevenDays.voiceMessages)}</td>
              <td>{n(usage.allTime.voiceMessages)}</td>
            </tr>
          </tbody>
        </table>
        <p className="text-sm text-muted">{t("ml.countedLive")}</p>
      </section>
      <TabLinks tabs={TABS.map((x) => ({ ...x, label: t(x.label) }))} current={tab} label={t("ml.tabs")} onSelect={setTab} />
      {tab === "routing" ? <Routing /> : tab === "prediction" ? <Prediction /> : <Optimization />}
      <Link to="/chat" className="btn btn-primary">
        {t("ml.tryChat")}
      </Link>
    </div>
  );
}
