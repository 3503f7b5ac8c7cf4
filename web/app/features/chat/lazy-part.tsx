// Parts of the chat that need the network anyway, loaded on first use. Unlike React.lazy, a part whose code
// cannot be fetched (no network, and not in the offline cache yet) shows its offline fallback instead of
// breaking the screen, and loads when the browser is back online.
import { type ComponentType, type ReactNode, useEffect, useState } from "react";

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, offline: ReactNode = null): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per part at module level, like React.lazy
  return function LazyPart(props: P) {
    const [Part, setPart] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Part) return;
      let live = true;
      const attempt = () =>
        load()
          .then((c) => {
            loaded = c;
            if (live) setPart(() => c);
          })
          .catch(() => live && setFailed(true));
      attempt();
      window.addEventListener("online", attempt);
      return () => {
        live = false;
        window.removeEventListener("online", attempt);
      };
    }, [Part]);
    if (Part) return <Part {...props} />;
    return failed ? offline : null;
  };
}
