// /contact-sales: "Contact Sales" on the Enterprise card sends an enquiry that staff see in their call-back queue
// (docs/decisions/060-every-claim-true.md); subscribing stays one link away, under its own label.
import { Form, Link, useNavigation } from "react-router";
import { apiSend } from "../lib/api.server";
import { useRootData } from "../root";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/contact-sales";
import { refusalOr } from "../i18n/refusal";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaTitle(matches, "sales.metaTitle", "Contact Sales — LinkUp") }];

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const phone = String(form.get("phone") ?? "");
  const message = String(form.get("message") ?? "");
  const res = await apiSend<{ ticketId: string; phone: string; error?: string }>(context, "POST", "/api/support/sales", { phone, message });
  if (res.ok && res.json) return { sent: { ticketId: res.json.ticketId, phone: res.json.phone } };
  return { error: refusalOr(res.json, "error.somethingWrong"), phone, message };
}

export default function ContactSales({ actionData }: Route.ComponentProps) {
  const t = useT();
  const user = useRootData()?.user;
  const busy = useNavigation().state === "submitting";
  const sent = actionData && "sent" in actionData ? actionData.sent : null;
  const failed = actionData && "error" in actionData ? actionData : null;
  return (
    <section className="card" aria-labelledby="sales-title">
      <h1 id="sales-title">{t("sales.title")}</h1>
      {sent ? (
        <p role="status">{t("sales.sent", { ticket: sent.ticketId, phone: sent.phone })}</p>
      ) : (
        <>
          <p className="text-muted">{t("sales.intro")}</p>
          <Form method="post" className="form">
            <label>
              {t("sales.phone")}
              <input
                name="phone"
                type="tel"
                autoComplete="tel"
                required
                maxLength={30}
                defaultValue={failed?.phone ?? (user?.authMode === "verified" ? (user.phone ?? "") : "")}
              />
            </label>
            <label>
              {t("sales.message")}
              <textarea name="message" required maxLength={2000} rows={4} defaultValue={failed?.message ?? ""} />
            </label>
            {failed ? (
              <p role="alert" className="text-danger">
                {t.error(failed.error)}
              </p>
            ) : null}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t("sales.send")}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to="/subscribe?plan=enterprise">{t("sales.self")}</Link>
      </p>
    </section>
  );
}
