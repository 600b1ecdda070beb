import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "#app/components/shell/app-shell";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** Everything under here needs a signed-in user (spec 000 §2). */
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, services] = await Promise.all([requireUser(request), getServices()]);
  return { user, productName: services.config.productName };
}

export default function AppLayout() {
  const { user, productName } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user} productName={productName}>
      <Outlet />
    </AppShell>
  );
}
