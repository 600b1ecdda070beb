import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "#app/components/shell/app-shell";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * Everything under here needs a signed-in, onboarded user (spec 000 §2; the
 * onboarding redirect lives in requireUser).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, services] = await Promise.all([requireUser(request), getServices()]);
  return { user, productName: services.config.productName, serverNow: Date.now() };
}

export default function AppLayout() {
  const { user, productName, serverNow } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user} productName={productName} serverNow={serverNow}>
      <Outlet />
    </AppShell>
  );
}
