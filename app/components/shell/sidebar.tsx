import { IconButton, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { NavLink } from "@remix-run/react";
import { useState } from "react";
import { ChevronLeftIcon, ChevronRightIcon, CollapseIcon, ExpandIcon, LogoutIcon } from "#app/components/icons";
import { Logo } from "#app/components/logo";
import type { CurrentUser } from "#app/utils/session.server";
import { NAV_ITEMS, type NavChild, type NavItem } from "./nav";
import { ProfileCard } from "./profile-card";
import { SettingsMenu } from "./settings-menu";

function ItemInner({ item, collapsed, trailing }: { item: Pick<NavItem, "icon" | "label">; collapsed: boolean; trailing?: React.ReactNode }) {
  const Icon = item.icon;
  return (
    <>
      <span className="dc-nav__icon">
        <Icon size={20} />
      </span>
      {collapsed ? <span className="dc-visually-hidden">{item.label}</span> : <span className="dc-nav__label">{item.label}</span>}
      {!collapsed && trailing ? <span className="dc-nav__trailing">{trailing}</span> : null}
    </>
  );
}

function withTooltip(collapsed: boolean, label: string, node: React.ReactElement) {
  return collapsed ? (
    <Tooltip content={label} side="right">
      {node}
    </Tooltip>
  ) : (
    node
  );
}

/**
 * Sidebar content, shared by the desktop column and the mobile slide-in panel.
 * Opening a section swaps the list for its sub-menu with a Back button.
 */
export function SidebarContent({
  user,
  productName,
  collapsed = false,
  onToggleCollapsed,
  onNavigate,
  onLogout,
  variant,
}: {
  user: CurrentUser;
  productName: string;
  collapsed?: boolean;
  onToggleCollapsed?: () => void;
  onNavigate?: () => void;
  onLogout: () => void;
  variant: "desktop" | "mobile";
}) {
  const [section, setSection] = useState<string | null>(null);
  const open = NAV_ITEMS.find((item) => item.id === section && item.children);
  const readOnly = user.role === "impersonate";
  // Admin Dashboard: admins only, on screens wider than 1024 px (the slide-in panel is the narrow layout) (spec 000 §2).
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || (user.role === "admin" && variant === "desktop"));

  return (
    <div className={`dc-sidebar__inner${collapsed ? " is-collapsed" : ""}`}>
      <div className="dc-sidebar__top">
        <NavLink to="/" className="dc-sidebar__brand" aria-label={`${productName} home`} onClick={onNavigate}>
          <Logo productName={productName} hideText={collapsed} />
        </NavLink>
        {variant === "desktop" && onToggleCollapsed ? (
          <Tooltip content={collapsed ? "Expand sidebar" : "Collapse sidebar"} side="right">
            <IconButton
              variant="ghost"
              color="gray"
              size="2"
              className="dc-sidebar__collapse"
              aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
              aria-expanded={!collapsed}
              onClick={onToggleCollapsed}
            >
              {collapsed ? <ExpandIcon /> : <CollapseIcon />}
            </IconButton>
          </Tooltip>
        ) : null}
      </div>

      <nav aria-label="Main" className="dc-nav">
        {open ? (
          <>
            {withTooltip(
              collapsed,
              "Back",
              <button type="button" className="dc-nav__back" onClick={() => setSection(null)} data-testid="nav-back">
                <span className="dc-nav__icon">
                  <ChevronLeftIcon size={20} />
                </span>
                {collapsed ? <span className="dc-visually-hidden">Back</span> : <span className="dc-nav__label">Back</span>}
              </button>,
            )}
            {collapsed ? null : (
              <Text as="div" size="1" weight="bold" color="gray" className="dc-nav__section-title">
                {open.label}
              </Text>
            )}
            <ul className="dc-nav__list" aria-label={open.label}>
              {open.children?.map((child) => (
                <li key={child.id}>
                  {withTooltip(
                    collapsed,
                    child.label,
                    <NavLink to={child.to} className="dc-nav__item" onClick={onNavigate}>
                      <ItemInner item={child} collapsed={collapsed} />
                    </NavLink>,
                  )}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <ul className="dc-nav__list">
            {items.map((item) => (
              <li key={item.id} className={item.adminOnly ? "dc-hide-tablet" : undefined}>
                {item.to ? (
                  withTooltip(
                    collapsed,
                    item.label,
                    <NavLink to={item.to} end className="dc-nav__item" onClick={onNavigate}>
                      <ItemInner item={item} collapsed={collapsed} />
                    </NavLink>,
                  )
                ) : (
                  withTooltip(
                    collapsed,
                    item.label,
                    <button
                      type="button"
                      className="dc-nav__item"
                      aria-haspopup="true"
                      onClick={() => {
                        if (collapsed) onToggleCollapsed?.();
                        setSection(item.id);
                      }}
                    >
                      <ItemInner item={item} collapsed={collapsed} trailing={<ChevronRightIcon size={16} />} />
                    </button>,
                  )
                )}
              </li>
            ))}
          </ul>
        )}
      </nav>

      <div className={`dc-sidebar__footer${collapsed ? " is-collapsed" : ""}`}>
        <ProfileCard user={user} compact={collapsed} />
        <div className="dc-sidebar__actions">
          <SettingsMenu readOnly={readOnly} onLogout={onLogout} side={variant === "desktop" ? "right" : "top"} />
          <Tooltip content={readOnly ? "Logout is disabled while impersonating" : "Logout"}>
            <IconButton
              variant="ghost"
              color="gray"
              size="3"
              aria-label="Logout"
              aria-disabled={readOnly || undefined}
              className={readOnly ? "dc-disabled-control" : undefined}
              data-testid="logout-button"
              onClick={(e) => (readOnly ? e.preventDefault() : onLogout())}
            >
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        </div>
      </div>
    </div>
  );
}
