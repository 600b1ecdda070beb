/** Marketing-site pages (contact, terms, privacy, FAQ) open in a new tab. */
export const MARKETING_SITE = "https://docuchat.example";
export const EXTERNAL_LINKS = {
  home: MARKETING_SITE,
  contact: `${MARKETING_SITE}/contact`,
  help: `${MARKETING_SITE}/help`,
  terms: `${MARKETING_SITE}/terms`,
  privacy: `${MARKETING_SITE}/privacy`,
} as const;
