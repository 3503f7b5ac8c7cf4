// Form errors and the hydration flag every form screen uses: shown inline without JavaScript, as a toast with it.
import { useEffect, useState } from "react";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";
import type { Refusal, SayOptions } from "../../i18n/refusal";

/** True once React has hydrated: controls that need JavaScript to re-enable stay usable without it. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The second factor's code field, in the page's language when the API finds it empty (core/identity-schemas.ts). */
export const CODE_FIELD: SayOptions = { fields: { code: "sec.err.enterCode" } };

export interface FormError {
  title: Refusal;
  description?: Refusal;
  field?: string;
}

/** Shows a form error as a destructive toast (docs/product/client-conventions.md) (the inline alert covers pages without JavaScript). */
export function useErrorToast(error: FormError | undefined, options?: SayOptions) {
  const toast = useToast();
  const t = useT();
  useEffect(() => {
    // The API's refusals by their code, the web's own by their key (web/app/i18n/refusal.ts).
    if (error)
      toast({
        title: t.error(error.title, options),
        description: error.description ? t.error(error.description, options) : undefined,
        variant: "destructive",
      });
  }, [error, toast, t, options]);
}

export function InlineError({ error, options }: { error?: FormError; options?: SayOptions }) {
  const t = useT();
  if (!error) return null;
  return (
    <p role="alert" className="error text-danger">
      {t.error(error.title, options)}
      {error.description ? ` - ${t.error(error.description, options)}` : ""}
    </p>
  );
}
