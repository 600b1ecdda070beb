import { IconButton, Popover, Separator, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { EXTERNAL_LINKS, SOCIAL_LINKS } from "#app/components/external-links";
import { CompassIcon, ExternalIcon, HelpIcon, LogoutIcon, MailIcon, ScrollIcon, SettingsIcon, ShieldIcon, UserIcon } from "#app/components/icons";
import { requestAppTour } from "#app/components/tour/tour-state";

function MenuRow({ icon, children, trailing }: { icon: ReactNode; children: ReactNode; trailing?: ReactNode }) {
  return (
    <>
      <span className="dc-menu__icon">{icon}</span>
      <span className="dc-menu__label">{children}</span>
      {trailing ? <span className="dc-menu__trailing">{trailing}</span> : null}
    </>
  );
}

function External({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  return (
    <a className="dc-menu__item" href={href} target="_blank" rel="noopener noreferrer">
      <MenuRow icon={icon} trailing={<ExternalIcon size={14} />}>
        {children}
        <span className="dc-visually-hidden"> (opens in a new tab)</span>
      </MenuRow>
    </a>
  );
}

/**
 * The Settings popover (spec 000 §2). Read-only (impersonating) sessions get a
 * dimmed, inert trigger instead.
 */
export function SettingsMenu({ readOnly, onLogout, side = "top" }: { readOnly: boolean; onLogout: () => void; side?: "top" | "right" }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  if (readOnly) {
    return (
      <Tooltip content="Settings are read-only while impersonating">
        <IconButton variant="ghost" color="gray" size="3" aria-label="Settings" aria-disabled="true" className="dc-disabled-control" onClick={(e) => e.preventDefault()}>
          <SettingsIcon />
        </IconButton>
      </Tooltip>
    );
  }
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Tooltip content="Settings">
        <Popover.Trigger>
          <IconButton variant="ghost" color="gray" size="3" aria-label="Settings" data-testid="settings-button">
            <SettingsIcon />
          </IconButton>
        </Popover.Trigger>
      </Tooltip>
      <Popover.Content side={side} align="end" sideOffset={10} width="260px" className="dc-menu" aria-label="Settings">
        <Text as="div" size="1" weight="bold" color="gray" className="dc-menu__heading">
          Settings
        </Text>
        <div className="dc-menu__list">
          <Link className="dc-menu__item" to="/profile/my-account" onClick={() => setOpen(false)}>
            <MenuRow icon={<UserIcon size={16} />}>My Profile</MenuRow>
          </Link>
          <button
            type="button"
            className="dc-menu__item"
            onClick={() => {
              setOpen(false);
              requestAppTour();
              // The app tour lives on the dashboard: go there, where the request starts it.
              if (location.pathname !== "/") navigate("/");
            }}
          >
            <MenuRow icon={<CompassIcon size={16} />}>Restart App Tour</MenuRow>
          </button>
          <Separator size="4" my="1" />
          <External href={EXTERNAL_LINKS.contact} icon={<MailIcon size={16} />}>
            Contact Us
          </External>
          <External href={EXTERNAL_LINKS.help} icon={<HelpIcon size={16} />}>
            Help &amp; FAQs
          </External>
          <External href={EXTERNAL_LINKS.terms} icon={<ScrollIcon size={16} />}>
            Terms of Service
          </External>
          <External href={EXTERNAL_LINKS.privacy} icon={<ShieldIcon size={16} />}>
            Privacy Policy
          </External>
          <nav aria-label="Follow us" className="dc-menu__social">
            {SOCIAL_LINKS.map((link) => (
              <a key={link.label} href={link.href} target="_blank" rel="noopener noreferrer" className="dc-menu__social-link">
                {link.label}
                <span className="dc-visually-hidden"> (opens in a new tab)</span>
              </a>
            ))}
          </nav>
          <Separator size="4" my="1" />
          <button
            type="button"
            className="dc-menu__item dc-menu__item--danger"
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
          >
            <MenuRow icon={<LogoutIcon size={16} />}>Logout</MenuRow>
          </button>
        </div>
      </Popover.Content>
    </Popover.Root>
  );
}
