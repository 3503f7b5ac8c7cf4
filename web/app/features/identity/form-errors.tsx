// Form errors and the hydration flag every form screen uses: shown inline without JavaScript, as a toast with it.
import { useEffect, useState } from "react";
import { useToast } from "../../components/toast";
import { useT } from "../../i18n";

/** True once React has hydrated: controls that need JavaScript to re-enable stay usable without it. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export interface FormError {
  title: string;
  description?: string;
  field?: string;
}

/** Shows a form error as a destructive toast (docs/product/client-conventions.md) (the inline alert covers pages without JavaScript). */
export function useErrorToast(error: FormError | undefined) {
  const toast = useToast();
  const t = useT();
  useEffect(() => {
    // The API's English words in the page's language where LinkUp knows them (web/app/i18n/api-errors.ts).
    if (error)
      toast({
        title: t.error(error.title),
        description: error.description ? t.error(error.description) : undefined,
        variant: "destructive",
      });
  }, [error, toast, t]);
}

export function InlineError({ error }: { error?: FormError }) {
  const t = useT();
  if (!error) return null;
  return (
    <p role="alert" className="error text-danger">
      {t.error(error.title)}
      {error.description ? ` - ${t.error(error.description)}` : ""}
    </p>
  );
}
