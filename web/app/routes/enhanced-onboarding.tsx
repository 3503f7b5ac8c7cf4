import { useActionData } from "react-router";
import { loadIdentity, verificationFlowAction } from "../features/identity/identity.server";
import type { FormError } from "../features/identity/verification-forms";
import { flowStep, VerificationFlow } from "../features/identity/verification-flow";
import type { Route } from "./+types/enhanced-onboarding";

export const meta: Route.MetaFunction = () => [{ title: "Get Started with LinkUp — LinkUp" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const identity = await loadIdentity(context);
  return { ...identity, step: flowStep(new URL(request.url), identity.verification) };
}

export function action({ request, context }: Route.ActionArgs) {
  return verificationFlowAction(request, context, "/enhanced-onboarding");
}

export default function Screen({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<{ error?: FormError }>();
  return (
    <VerificationFlow
      title="Get Started with LinkUp"
      intro="Choose how to start: verify your phone for the full experience, or start anonymously and verify later."
      path="/enhanced-onboarding"
      step={loaderData.step}
      user={loaderData.user}
      verification={loaderData.verification}
      resendInSeconds={loaderData.resendInSeconds}
      error={actionData?.error}
    />
  );
}
