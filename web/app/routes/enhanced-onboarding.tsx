import { useActionData } from "react-router";
import { loadIdentity, verificationFlowAction } from "../features/identity/identity.server";
import type { FormError } from "../features/identity/verification-forms";
import { flowStep, VerificationFlow } from "../features/identity/verification-flow";
import { metaTitle, useT } from "../i18n";
import type { Route } from "./+types/enhanced-onboarding";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaTitle(matches, "eo.metaTitle", "Get Started with LinkUp — LinkUp") },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const identity = await loadIdentity(context);
  return { ...identity, step: flowStep(new URL(request.url), identity.verification) };
}

export function action({ request, context }: Route.ActionArgs) {
  return verificationFlowAction(request, context, "/enhanced-onboarding");
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<{ error?: FormError }>();
  const t = useT();
  return (
    <VerificationFlow
      title={t("eo.title")}
      intro={t("eo.intro")}
      path="/enhanced-onboarding"
      step={loaderData.step}
      user={loaderData.user}
      verification={loaderData.verification}
      resendInSeconds={loaderData.resendInSeconds}
      error={actionData?.error}
    />
  );
}
