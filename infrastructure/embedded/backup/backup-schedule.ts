import type { Logger } from "pino";
import { removeBackupLeftovers, takeScheduledBackup } from "./embedded-backup";

/**
 * Takes a backup every `intervalHours` in the background process, keeping the
 * newest `keep` (BACKUP_INTERVAL_HOURS, BACKUP_DIR, BACKUP_KEEP). A failed one
 * is logged and tried again at the next interval; the app goes on serving.
 * At start, what a backup cut short by a crash left in `dir` is removed.
 */
export function scheduleBackups(
  dataDir: string,
  options: { intervalHours: number; dir: string; keep: number; appSecret: string },
  logger: Pick<Logger, "info" | "error">,
): { stop(): void } {
  let running: Promise<void> | null = removeBackupLeftovers(options.dir)
    .then((removed) => {
      if (removed.length > 0) logger.info({ removed }, "removed what an interrupted backup left");
    })
    .catch((error: unknown) => logger.error({ err: error }, "could not remove what an interrupted backup left"))
    .finally(() => (running = null));
  const timer = setInterval(() => {
    if (running) return;
    running = takeScheduledBackup(dataDir, options)
      .then(({ file, removed }) => logger.info({ file, removed: removed.length }, "scheduled backup written"))
      .catch((error: unknown) => logger.error({ err: error }, "scheduled backup failed"))
      .finally(() => (running = null));
  }, options.intervalHours * 3_600_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
