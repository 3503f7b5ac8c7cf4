// /ai-features (docs/product/screens.md): the assistant's demos, calling the real APIs. Forms post to the action,
// so every demo works before JavaScript arrives.
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { AI_SAMPLE_PROMPTS, extractAiText, LANGUAGES } from "../../../core/ai-command";
import type { SmartReply, Translation } from "../../../core/ai-schemas";
import { PremiumOffer } from "../features/assistant/premium-offer";
import { liaHelpMessage } from "../features/assistant/lia-help";
import type { VoiceItem } from "../features/assistant/voice-recorder";
import { lazyPart } from "../features/chat/lazy-part";
import { apiGet, apiSend } from "../lib/api.server";
import { metaTitle, useT } from "../i18n";
import { useRootData } from "../root";
import type { Route } from "./+types/ai-features";
import { type Offer, offerOf, type Refusal, refusalOr } from "../i18n/refusal";

// Recording needs the browser's microphone: the recorder loads after the page (bench/README.md, bundle); the offer
// a free person gets instead is on the page from the start.
const VoiceRecorder = lazyPart(() => import("../features/assistant/voice-recorder").then((m) => m.VoiceRecorder));

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "aif.metaTitle", "AI Features — LinkUp") },
  {
    name: "description",
    content: metaTitle(
      matches,
      "aif.metaDescription",
      "Try LinkUp's assistant: smart replies, translation, emergency guidance and the community assistant.",
    ),
  },
];

type Usage = {
  tier: "free" | "premium" | "enterprise";
  aiCommands: { used: number; limit: number | null };
  translations: { used: number; limit: number | null };
  voiceMessages: { usedThisMonth: number; limit: number | null };
};

export async function loader({ context }: Route.LoaderArgs) {
  const usage = await apiGet<Usage>(context, "/api/ai/usage");
  const voice = usage && usage.voiceMessages.limit !== 0 ? await apiGet<{ messages: VoiceItem[] }>(context, "/api/ai/voice") : null;
  return { usage, voiceMessages: voice?.messages ?? [] };
}

export type DemoResult =
  | { intent: "assistant" | "emergency"; question: string; reply?: string; offer?: Offer; failed?: boolean; error?: Refusal }
  | { intent: "smart-replies"; replies?: SmartReply[]; error?: Refusal; offer?: Offer }
  | { intent: "translate"; translation?: Translation; error?: Refusal; offer?: Offer }
  | { intent: "start"; error?: Refusal };

const EMPTY = {
  translate: { key: "aif.err.text" },
  smartReplies: { key: "aif.err.smart" },
  assistant: { key: "aif.err.question" },
  emergency: { key: "aif.err.emergency" },
} as const;

export async function action({ request, context }: Route.ActionArgs): Promise<DemoResult | Response> {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const text = String(form.get("message") ?? "").trim();
  if (intent === "start") {
    const started = await apiSend(context, "POST", "/api/auth/anonymous");
    if (!started.ok) return { intent: "start", error: refusalOr(started.json, "aif.err.start") };
    return redirect("/ai-features", { headers: started.headers });
  }
  if (intent === "assistant" || intent === "emergency") {
    if (!text) return { intent, question: "", error: intent === "assistant" ? EMPTY.assistant : EMPTY.emergency };
    const message = intent === "emergency" ? `emergency ${text}` : (extractAiText(text) ?? text);
    const res = await apiSend<{ message: string } & Offer>(context, "POST", "/api/ai/chat", { message, userId: "web" });
    if (res.ok && res.json) return { intent, question: text, reply: res.json.message };
    if (res.status === 402 && res.json) return { intent, question: text, offer: offerOf(res.json) ?? undefined };
    if (res.status === 400 && res.json) return { intent, question: text, error: refusalOr(res.json, "error.somethingWrong") };
    return { intent, question: text, failed: true };
  }
  if (intent === "smart-replies") {
    if (!text) return { intent, error: EMPTY.smartReplies };
    const res = await apiSend<SmartReply[]>(context, "POST", "/api/ai/smart-replies", { message: text });
    if (res.ok && Array.isArray(res.json)) return { intent, replies: res.json };
    if (res.status === 403) return { intent, error: { key: "aif.err.smartVerify" } };
    return { intent, error: refusalOr(res.json, "aif.err.smartDown") };
  }
  if (intent === "translate") {
    if (!text) return { intent, error: EMPTY.translate };
    const res = await apiSend<Translation & Offer>(context, "POST", "/api/ai/translate", {
      text,
      targetLanguage: String(form.get("targetLanguage") ?? "ha"),
    });
    if (res.ok && res.json) return { intent, translation: res.json };
    if (res.status === 402 && res.json) return { intent, offer: offerOf(res.json) ?? undefined };
    return { intent, error: refusalOr(res.json, "api.translationFailed") };
  }
  throw data({ error: "Unknown demo" }, { status: 400 });
}

function useBusy(intent: string) {
  const nav = useNavigation();
  return nav.state !== "idle" && nav.formData?.get("intent") === intent;
}

function SubmitButton({ intent, label, busyLabel }: { intent: string; label: string; busyLabel: string }) {
  const busy = useBusy(intent);
  return (
    <button type="submit" name="intent" value={intent} className="btn btn-primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

function ErrorLine({ text }: { text?: Refusal }) {
  const t = useT();
  return text ? (
    <p role="alert" className="text-danger">
      {t.error(text)}
    </p>
  ) : null;
}

export default function AiFeatures({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const t = useT();
  const phone = root?.env.SUPPORT_PHONE ?? "";
  const result = useActionData<typeof action>() as DemoResult | undefined;
  const { usage } = loaderData;
  const r = <I extends DemoResult["intent"]>(intent: I) =>
    result?.intent === intent ? (result as Extract<DemoResult, { intent: I }>) : undefined;
  const assistant = r("assistant");
  const emergency = r("emergency");
  const smart = r("smart-replies");
  const tr = r("translate");

  if (!usage) {
    return (
      <section className="card grid justify-items-center gap-3 text-center">
        <h1>{t("aif.title")}</h1>
        <p>{t("aif.startIntro")}</p>
        <Form method="post">
          <button type="submit" name="intent" value="start" className="btn btn-primary">
            {t("aif.startFree")}
          </button>
        </Form>
        <ErrorLine text={r("start")?.error} />
      </section>
    );
  }

  const limit = (n: number | null) => (n === null ? t("aif.unlimited") : new Intl.NumberFormat(t.tag).format(n));
  return (
    <>
      <section className="card">
        <h1>{t("aif.title")}</h1>
        <p className="text-muted">
          {t("aif.today", {
            ai: usage.aiCommands.used,
            aiLimit: limit(usage.aiCommands.limit),
            tr: usage.translations.used,
            trLimit: limit(usage.translations.limit),
            plan: t(
              usage.tier === "enterprise" ? "pricing.enterprise" : usage.tier === "premium" ? "pricing.premium" : "pricing.community",
            ),
          })}
        </p>
      </section>

      <section className="card" aria-labelledby="assistant-title">
        <h2 id="assistant-title">{t("aif.assistant")}</h2>
        <p className="text-muted">
          {t("aif.assistantHint")} {AI_SAMPLE_PROMPTS.slice(0, 3).join(" · ")}
        </p>
        <Form method="post" className="form">
          <label>
            {t("aif.ask")}
            <input name="message" defaultValue="@ai " autoComplete="off" maxLength={2000} />
          </label>
          <SubmitButton intent="assistant" label={t("aif.askButton")} busyLabel={t("chat.aiThinking")} />
        </Form>
        <DemoAnswer result={assistant} phone={phone} />
      </section>

      <section className="card" aria-labelledby="smart-title">
        <h2 id="smart-title">{t("aif.smart")}</h2>
        <Form method="post" className="form">
          <label>
            {t("aif.received")}
            <input name="message" placeholder={t("aif.receivedExample")} maxLength={2000} />
          </label>
          <SubmitButton intent="smart-replies" label={t("aif.generate")} busyLabel={t("aif.generating")} />
        </Form>
        <ErrorLine text={smart?.error} />
        {smart?.replies ? (
          <ul className="quick-replies" aria-label={t("aif.suggested")}>
            {smart.replies.map((s) => (
              <li key={s.id} className="chip">
                {s.text}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section className="card" aria-labelledby="translate-title">
        <h2 id="translate-title">{t("aif.translation")}</h2>
        <Form method="post" className="form">
          <label>
            {t("aif.textToTranslate")}
            <input name="message" placeholder={t("aif.translateExample")} maxLength={2000} />
          </label>
          <label>
            {t("aif.translateTo")}
            <select name="targetLanguage" defaultValue="ha">
              {Object.entries(LANGUAGES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <SubmitButton intent="translate" label={t("aif.translate")} busyLabel={t("aif.translating")} />
        </Form>
        <ErrorLine text={tr?.error} />
        {tr?.offer ? <PremiumOffer error={tr.offer.error} code={tr.offer.code} phone={phone} /> : null}
        {tr?.translation ? (
          <output className="card mt-3 grid gap-[0.35rem]" aria-label={t("aif.translation")}>
            <strong>{tr.translation.translatedText}</strong>
            <span className="text-muted text-sm">
              {tr.translation.sourceLanguage} → {tr.translation.targetLanguage}
            </span>
          </output>
        ) : null}
      </section>

      <section className="card" aria-labelledby="emergency-title">
        <h2 id="emergency-title">{t("aif.emergency")}</h2>
        <p className="text-muted">{t("aif.emergencyHint")}</p>
        <Form method="post" className="form">
          <label>
            {t("aif.describe")}
            <input name="message" placeholder={t("aif.describeExample")} maxLength={500} />
          </label>
          <SubmitButton intent="emergency" label={t("aif.guidance")} busyLabel={t("chat.aiThinking")} />
        </Form>
        <DemoAnswer result={emergency} phone={phone} />
      </section>

      <section className="card" aria-labelledby="files-title">
        <h2 id="files-title">{t("aif.files")}</h2>
        <p className="text-muted">{t("aif.filesHint")}</p>
        <Link to="/file-sharing" className="btn btn-ghost">
          {t("aif.openFiles")}
        </Link>
      </section>

      <section className="card" aria-labelledby="voice-title">
        <h2 id="voice-title">{t("ml.voiceMessages")}</h2>
        <p className="text-muted">{t("aif.voiceHint")}</p>
        {usage.voiceMessages.limit === 0 ? (
          <PremiumOffer code="premium_feature" error={{ key: "errors.voice_premium" }} phone={phone} standing />
        ) : (
          <>
            <noscript>
              <p className="text-muted">{t("set.needsJs")}</p>
            </noscript>
            <VoiceRecorder voiceLimit={usage.voiceMessages.limit} phone={phone} initial={loaderData.voiceMessages} />
          </>
        )}
      </section>
    </>
  );
}

function DemoAnswer({ result, phone }: { result?: Extract<DemoResult, { intent: "assistant" | "emergency" }>; phone: string }) {
  const t = useT();
  if (!result) return null;
  if (result.error) return <ErrorLine text={result.error} />;
  if (result.offer) return <PremiumOffer error={result.offer.error} code={result.offer.code} phone={phone} />;
  return (
    <output className="card mt-3 grid gap-[0.35rem]" aria-label={t("aif.answer")}>
      <span className="text-muted text-sm">{t("aif.you", { question: result.question })}</span>
      <span className="whitespace-pre-wrap">🤖 {result.failed ? liaHelpMessage(t, phone) : result.reply}</span>
    </output>
  );
}
