import { useEffect, useState } from "react";

/**
 * False during server render and the first client render, true afterwards.
 * Client-only behaviour (disabling submit buttons until a form is valid) waits
 * for it, so the same forms still submit when JavaScript never runs.
 */
let hydratedOnce = false;

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
