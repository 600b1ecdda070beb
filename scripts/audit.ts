// Replays history from the event store alone (no running app needed):
//   npm run audit -- account <username | user id>
//   npm run audit -- impersonation <impersonation id>
// Add --json for the rows as JSON. Works on whichever stores the environment selects (embedded by default, DATA_DIR).
import "reflect-metadata";
import { AccountAudit } from "#application/administration/account-audit";
import { type AuditHistory, formatHistory } from "#application/administration/audit-rows";
import { ImpersonationAudit } from "#application/administration/impersonation-audit";
import { AccountStreams } from "#application/identity/account-streams";
import { loadConfig } from "#infrastructure/config/config";
import { HmacSecretHasher } from "#infrastructure/security/hmac-secret-hasher";
import { openStores } from "#infrastructure/stores";

const args = process.argv.slice(2);
const json = args.includes("--json");
const [subject, query] = args.filter((arg) => arg !== "--json");
if ((subject !== "account" && subject !== "impersonation") || !query) {
  console.error("Usage: npm run audit -- account <username | user id> [--json]\n       npm run audit -- impersonation <impersonation id> [--json]");
  process.exit(2);
}

const config = loadConfig();
const stores = await openStores(config);
try {
  let history: AuditHistory | null = null;
  if (subject === "account") {
    const audit = new AccountAudit(stores.eventStore, new AccountStreams(stores.eventStore, new HmacSecretHasher(config.appSecret)));
    const userId = await audit.findAccount(query);
    if (userId) history = await audit.history(userId, query);
  } else {
    history = await new ImpersonationAudit(stores.eventStore).history(query);
  }
  if (!history) {
    console.error(`No ${subject} found for "${query}".`);
    process.exitCode = 1;
  } else {
    console.log(json ? JSON.stringify(history, null, 2) : formatHistory(history));
  }
} finally {
  await stores.close();
}
