// Prints one account's history, replayed from the event store:
//   npm run audit -- account <username | user id>
// Works on whichever stores the environment selects (embedded by default, DATA_DIR).
import "reflect-metadata";
import { AccountAudit, formatHistory } from "#application/identity/account-audit";
import { loadConfig } from "#infrastructure/config/config";
import { HmacSecretHasher } from "#infrastructure/security/hmac-secret-hasher";
import { openStores } from "#infrastructure/stores";

const [subject, query] = process.argv.slice(2);
if (subject !== "account" || !query) {
  console.error("Usage: npm run audit -- account <username | user id>");
  process.exit(2);
}

const config = loadConfig();
const stores = await openStores(config);
try {
  const audit = new AccountAudit(stores.eventStore, new HmacSecretHasher(config.appSecret));
  const userId = await audit.findAccount(query);
  if (!userId) {
    console.error(`No account found for "${query}".`);
    process.exitCode = 1;
  } else {
    console.log(formatHistory(await audit.history(userId, query)));
  }
} finally {
  await stores.close();
}
