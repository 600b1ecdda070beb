import { Card, Heading, Text } from "@radix-ui/themes";
import type { HistoryRow } from "#application/administration/administration-queries";
import { utcTime } from "./impersonation-history";

function duration(row: HistoryRow): string {
  const end = row.endedAt ? Date.parse(row.endedAt) : null;
  if (end === null) return "still looking";
  const minutes = Math.max(1, Math.round((end - Date.parse(row.startedAt)) / 60_000));
  return `for ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * My Account: who looked at this account, when, why, for how long and what
 * (issue 15 §4), from the administration's read side. Texts are rendered as
 * text (titles and reasons are untrusted).
 */
export function AccountViews({ rows }: { rows: HistoryRow[] }) {
  return (
    <Card size="3" className="dc-account__card" data-testid="account-views">
      <Heading as="h2" size="4" mb="3">
        Administrator access
      </Heading>
      {rows.length === 0 ? (
        <Text color="gray" size="2">
          No administrator has looked at your account.
        </Text>
      ) : (
        <ul className="dc-admin__access">
          {rows.map((row) => (
            <li key={row.id}>
              <Text as="p" size="2">
                An administrator ({row.adminName}) viewed your account on {utcTime(row.startedAt)}, {duration(row)}. Reason: {row.reason}
              </Text>
              {row.views.length > 0 ? (
                <ul className="dc-admin__views">
                  {row.views.map((view, index) => (
                    <li key={`${view.viewedAt}-${index}`}>
                      <Text size="2">
                        Viewed your {view.kind} ‘{view.title}’ at {utcTime(view.viewedAt)}
                      </Text>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
