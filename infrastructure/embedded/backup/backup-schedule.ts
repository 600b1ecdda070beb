import type { Logger } from "pino";
import { takeScheduledBackup } from "./embedded-backup";

/**
 * Takes a backup every `intervalHours` in the background process, keeping the
 * newest `keep` (BACKUP_INTERVAL_HOURS, BACKUP_DIR, BACKUP_KEEP). A failed one
 * is logged and tried again at the next interval; the app goes on serving.
 */
export function scheduleBackups(dataDir: string, options: { intervalHours: number; dir: string; keep: number }, logger: Pick<Logger, "info" | "error">): { stop(): void } {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = takeScheduledBackup(dataDir, options.dir, options.keep)
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
