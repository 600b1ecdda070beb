/**
 * robots.txt (RFC 9309), the parts a polite crawler needs: groups by
 * user-agent, Allow/Disallow with `*` and `$`, the longest match wins and
 * Allow wins a tie. The group for our own product token is used when there is
 * one, otherwise the `*` group; several groups naming the same agent merge.
 */

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

export interface RobotsRules {
  isAllowed(pathAndQuery: string): boolean;
}

export const ALLOW_ALL: RobotsRules = { isAllowed: () => true };
export const DISALLOW_ALL: RobotsRules = { isAllowed: () => false };

function toRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
}

/** Percent-encoding differences must not let a path slip past a rule: compare decoded-then-re-encoded forms. */
function canonicalPath(path: string): string {
  try {
    return encodeURI(decodeURI(path));
  } catch {
    return path;
  }
}

export function parseRobots(text: string, userAgent: string): RobotsRules {
  const token = userAgent.toLowerCase();
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | null = null;
  let lastWasAgent = false;

  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if (field === "allow" || field === "disallow") {
      lastWasAgent = false;
      if (!current || value === "") continue; // empty Disallow: no rule
      const pattern = canonicalPath(value);
      current.rules.push({ allow: field === "allow", pattern, regex: toRegex(pattern) });
    } else {
      lastWasAgent = false; // sitemap, crawl-delay, …: ignored, but they end a user-agent run
    }
  }

  const ours = groups.filter((g) => g.agents.some((a) => a !== "*" && a !== "" && token.includes(a)));
  const chosen = ours.length > 0 ? ours : groups.filter((g) => g.agents.includes("*"));
  const rules = chosen.flatMap((g) => g.rules);
  if (rules.length === 0) return ALLOW_ALL;

  return {
    isAllowed(pathAndQuery: string): boolean {
      const path = canonicalPath(pathAndQuery || "/");
      if (path === "/robots.txt") return true;
      let best: Rule | null = null;
      for (const rule of rules) {
        if (!rule.regex.test(path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)) {
          best = rule;
        }
      }
      return best ? best.allow : true;
    },
  };
}
