/** Display helpers shared by the library pages (spec 000 §4, §9). */

const UNITS = ["B", "KB", "MB", "GB"] as const;

/** Sizes in B, KB, MB, GB with one decimal. */
export function formatSize(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes) || bytes < 0) return "—";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** "1 page", "12 pages"; "—" when the count is not known yet. */
export function formatPageCount(pages: number | null | undefined): string {
  if (typeof pages !== "number" || !Number.isFinite(pages) || pages <= 0) return "— pages";
  return `${pages} ${pages === 1 ? "page" : "pages"}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** dd/MM/yyyy hh:mm:ss a, in the viewer's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  const hours = d.getHours() % 12 || 12;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(hours)}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${d.getHours() < 12 ? "AM" : "PM"}`;
}

/** dd-mm-yyyy (document detail). */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
}

/** hh:mm:ss a (document detail, dashboard). */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return `${pad(d.getHours() % 12 || 12)}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${d.getHours() < 12 ? "AM" : "PM"}`;
}

export type StatusTone = { color: "green" | "amber" | "red"; label: string; inProgress: boolean };

/** Spec 000 §4: ACTIVE green Active; COMPLETED/SUCCESSFUL green Completed; in progress amber; otherwise red Failed. */
export function statusDisplay(status: string): StatusTone {
  const s = status.toUpperCase();
  if (s === "ACTIVE") return { color: "green", label: "Active", inProgress: false };
  if (s === "COMPLETED" || s === "SUCCESSFUL") return { color: "green", label: "Completed", inProgress: false };
  if (s === "UPLOADING" || s === "PREPARING_CONTEXT" || s === "INPROGRESS") return { color: "amber", label: "In Progress", inProgress: true };
  return { color: "red", label: "Failed", inProgress: false };
}

export const SOURCE_LABELS: Record<string, string> = {
  file: "File",
  document_url: "Document URL",
  website_url: "Website",
  youtube_link: "YouTube",
  audio: "Audio",
};

/** Cuts a name at `max` characters with an ellipsis. */
export const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
