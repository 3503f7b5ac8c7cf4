// Form errors and the hydration flag every form screen uses: shown inline without JavaScript, as a toast with it.
import { useEffect, useState } from "react";
import { useToast } from "../../components/toast";

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

/** Shows a form error as the spec's destructive toast (the inline alert covers pages without JavaScript). */
export function useErrorToast(error: FormError | undefined) {
  const toast = useToast();
  useEffect(() => {
    if (error) toast({ title: error.title, description: error.description, variant: "destructive" });
  }, [error, toast]);
}

export function InlineError({ error }: { error?: FormError }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error.title}
      {error.description ? ` - ${error.description}` : ""}
    </p>
  );
}
