import { IconButton, Theme } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { Dialog, VisuallyHidden } from "radix-ui";
import { useEffect, useState, type ReactNode } from "react";
import { CloseIcon, MenuIcon } from "#app/components/icons";
import { ImpersonationBar } from "#app/components/administration/impersonation-bar";
import { Logo } from "#app/components/logo";
import { TOUR_OPENED_EVENT } from "#app/components/tour/tour-state";
import type { CurrentUser } from "#app/utils/session.server";
import { Breadcrumbs } from "./breadcrumbs";
import { DeletionBanner } from "./deletion-banner";
import { LogoutDialog } from "./logout-dialog";
import { SidebarContent } from "./sidebar";

const COLLAPSED_KEY = "docuchat.sidebar.collapsed";

/**
 * Signed-in layout (spec 000 §2): a collapsible sidebar above 1024 px, a
 * hamburger-opened slide-in panel at 1024 px and below.
 */
export function AppShell({
  user,
  productName,
  serverNow,
  children,
}: {
  user: CurrentUser;
  productName: string;
  /** The server's time at render (ms), so the deletion countdown renders the same on both sides. */
  serverNow: number;
  children: ReactNode;
}) {
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    setCollapsed(window.localStorage.getItem(COLLAPSED_KEY) === "1");
  }, []);
  useEffect(() => setMobileOpen(false), [location.pathname]);
  // A tour's dialog takes the screen; the slide-in menu would cover it.
  useEffect(() => {
    const close = () => setMobileOpen(false);
    window.addEventListener(TOUR_OPENED_EVENT, close);
    return () => window.removeEventListener(TOUR_OPENED_EVENT, close);
  }, []);

  const toggleCollapsed = () =>
    setCollapsed((c) => {
      window.localStorage.setItem(COLLAPSED_KEY, c ? "0" : "1");
      return !c;
    });
  const askLogout = () => {
    setMobileOpen(false);
    setLogoutOpen(true);
  };

  return (
    <div className={`dc-shell${collapsed ? " is-collapsed" : ""}`}>
      <a href="#main" className="dc-skip-link">
        Skip to content
      </a>
      <aside className="dc-sidebar dc-sidebar--desktop" aria-label="Sidebar">
        <SidebarContent
          variant="desktop"
          user={user}
          productName={productName}
          collapsed={collapsed}
          onToggleCollapsed={toggleCollapsed}
          onLogout={askLogout}
        />
      </aside>

      <div className="dc-shell__main">
        {user.impersonation ? <ImpersonationBar deadline={user.impersonation.deadline} serverNow={serverNow} userName={user.displayName ?? user.username} /> : null}
        <header className="dc-topbar">
          <Dialog.Root open={mobileOpen} onOpenChange={setMobileOpen}>
            <Dialog.Trigger asChild>
              <IconButton variant="ghost" color="gray" size="3" aria-label="Open menu" data-testid="open-menu">
                <MenuIcon size={22} />
              </IconButton>
            </Dialog.Trigger>
            <Dialog.Portal>
              <Theme accentColor="indigo" grayColor="slate" radius="large" className="dc-drawer-theme">
                <Dialog.Overlay className="dc-drawer-overlay" />
                <Dialog.Content className="dc-drawer" aria-describedby={undefined}>
                  <VisuallyHidden.Root asChild>
                    <Dialog.Title>Navigation</Dialog.Title>
                  </VisuallyHidden.Root>
                  <Dialog.Close asChild>
                    <IconButton variant="ghost" color="gray" size="2" className="dc-drawer__close" aria-label="Close menu">
                      <CloseIcon />
                    </IconButton>
                  </Dialog.Close>
                  <SidebarContent
                    variant="mobile"
                    user={user}
                    productName={productName}
                    onNavigate={() => setMobileOpen(false)}
                    onLogout={askLogout}
                  />
                </Dialog.Content>
              </Theme>
            </Dialog.Portal>
          </Dialog.Root>
          <Logo productName={productName} size={28} />
        </header>

        {user.status === "PENDING_DELETE" && user.deleteScheduled ? (
          <DeletionBanner purgeAt={user.deleteScheduled} serverNow={serverNow} />
        ) : null}

        <div className="dc-shell__crumbs">
          <Breadcrumbs productName={productName} />
        </div>
        <main id="main" className="dc-shell__content" tabIndex={-1}>
          {children}
        </main>
      </div>

      <LogoutDialog open={logoutOpen} onOpenChange={setLogoutOpen} />
    </div>
  );
}
