import { Heading } from "@radix-ui/themes";
import { NavLink, Outlet, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireUser } from "#app/utils/session.server";

/** The profile area's tabs (spec 001 §2). */
export const PROFILE_TABS = [
  { id: "my-account", label: "My Account", to: "/profile/my-account" },
  { id: "chat-settings", label: "Chat Settings", to: "/profile/chat-settings" },
  { id: "my-plan", label: "My Plan", to: "/profile/my-plan" },
  { id: "my-usage", label: "My Usage", to: "/profile/my-usage" },
  { id: "my-referral", label: "My Referral", to: "/profile/my-referral" },
  { id: "api-tokens", label: "API Tokens", to: "/profile/api-tokens" },
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  // An admin acting as this user may not open profile routes (spec 001 §2, §6).
  if ((await requireUser(request)).role === "impersonate") throw redirect("/");
  return null;
}

export default function ProfileLayout() {
  const tabs = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the strip scrolls: the open tab is brought to its middle, not left out of view (issue 44).
  useEffect(() => {
    const strip = tabs.current;
    const active = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!strip || !active) return;
    const [outer, inner] = [strip.getBoundingClientRect(), active.getBoundingClientRect()];
    strip.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
  }, [pathname]);
  return (
    <div className="dc-profile-page">
      <Heading as="h1" size={{ initial: "6", sm: "7" }} mb="4">
        Settings
      </Heading>
      <nav aria-label="Profile sections" className="dc-tabs" ref={tabs}>
        {PROFILE_TABS.map((tab) => (
          <NavLink key={tab.id} to={tab.to} className="dc-tabs__tab" prefetch="intent">
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
