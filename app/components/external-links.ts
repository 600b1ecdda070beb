/** Marketing-site pages (contact, terms, privacy, FAQ) open in a new tab. */
export const MARKETING_SITE = "https://docuchat.example";
export const EXTERNAL_LINKS = {
  home: MARKETING_SITE,
  contact: `${MARKETING_SITE}/contact`,
  help: `${MARKETING_SITE}/help`,
  terms: `${MARKETING_SITE}/terms`,
  privacy: `${MARKETING_SITE}/privacy`,
} as const;

/** The product's social accounts, at the foot of the Settings popover (spec 000 §2). */
export const SOCIAL_LINKS = [
  { label: "LinkedIn", href: "https://www.linkedin.com/company/docuchat" },
  { label: "X", href: "https://x.com/docuchat" },
  { label: "YouTube", href: "https://www.youtube.com/@docuchat" },
  { label: "GitHub", href: "https://github.com/docuchat" },
] as const;
