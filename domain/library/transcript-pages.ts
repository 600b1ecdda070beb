/**
 * A transcript becomes pages of a few minutes each, every page headed by the
 * stretch of the recording it covers, so a citation of a page points at a
 * time and the player can start there (decision 141).
 */

export interface TimedSegment {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

export interface TranscriptPage {
  pageNumber: number;
  text: string;
  blocks: [];
  timeRange: { startSeconds: number; endSeconds: number };
  segments: TimedSegment[];
}

/** Three minutes of speech is about 400 words: a page a reader takes in at a glance, and a citation close enough to play from. */
export const TRANSCRIPT_PAGE_SECONDS = 180;

/** "1:05" or "1:02:05". */
export function formatTimestamp(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

export const timeRangeLabel = (range: { startSeconds: number; endSeconds: number }) =>
  `${formatTimestamp(range.startSeconds)} – ${formatTimestamp(range.endSeconds)}`;

/**
 * A segment as a line of its own, written as a sentence: the offline model
 * writes no capitals or punctuation, and without them a page would read as one
 * endless sentence, which an answer could only quote whole (so its citation
 * could not point at the moment it quotes).
 */
function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return "";
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** Segments in order, grouped by the page-length stretch of the recording they start in (empty stretches make no page). */
export function transcriptPages(
  segments: TimedSegment[],
  options: { pageSeconds?: number; /** Caption lines are fragments of sentences: run them together instead. */ asSentences?: boolean } = {},
): TranscriptPage[] {
  const pageSeconds = options.pageSeconds ?? TRANSCRIPT_PAGE_SECONDS;
  const asSentences = options.asSentences ?? true;
  const pages: TranscriptPage[] = [];
  let group: TimedSegment[] = [];
  let bucket = -1;
  const flush = () => {
    if (group.length === 0) return;
    const timeRange = { startSeconds: group[0]!.startSeconds, endSeconds: group[group.length - 1]!.endSeconds };
    const body = asSentences
      ? group.map((s) => asSentence(s.text)).filter(Boolean).join("\n")
      : group.map((s) => s.text.replace(/\s+/g, " ").trim()).filter(Boolean).join(" ");
    pages.push({ pageNumber: pages.length + 1, text: `[${timeRangeLabel(timeRange)}]\n${body}`, blocks: [], timeRange, segments: group });
    group = [];
  };
  for (const segment of segments) {
    if (!segment.text.trim()) continue;
    const b = Math.floor(segment.startSeconds / pageSeconds);
    if (b !== bucket) {
      flush();
      bucket = b;
    }
    group.push(segment);
  }
  flush();
  return pages;
}

/** The segment of a page a quoted passage comes from (its start is where the player begins); the page's first when none matches. */
export function segmentForQuote(segments: TimedSegment[], quote: string | null | undefined): TimedSegment | undefined {
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9' ]+/g, " ").split(/\s+/).filter(Boolean);
  const wanted = words(quote ?? "").slice(0, 6).join(" ");
  if (wanted) {
    // A quote may span segments: find the segment its first words start in.
    let joined = "";
    const starts: { at: number; segment: TimedSegment }[] = [];
    for (const s of segments) {
      starts.push({ at: joined.length, segment: s });
      joined += (joined ? " " : "") + words(s.text).join(" ");
    }
    const at = joined.indexOf(wanted);
    if (at >= 0) return [...starts].reverse().find((s) => s.at <= at)?.segment;
  }
  return segments[0];
}

/** The mark an offline transcript carries on My Documents and the document page (decision 140). */
export const OFFLINE_TRANSCRIPT_NOTE = "transcribed offline — basic quality; add a key for better transcripts";

/** Beside a recording in My Documents: how far its transcription got, and whether it is the basic offline one. */
export function transcriptNotes(status: string, warnings: readonly string[], transcription?: { secondsDone: number; secondsTotal: number } | null): string[] {
  const notes: string[] = [];
  if (status === "PREPARING_CONTEXT" && transcription && transcription.secondsTotal > 0) {
    notes.push(`Transcribing: ${formatTimestamp(transcription.secondsDone)} of ${formatTimestamp(transcription.secondsTotal)} (${Math.round((100 * transcription.secondsDone) / transcription.secondsTotal)} %)`);
  }
  if (warnings.includes(OFFLINE_TRANSCRIPT_NOTE)) notes.push(OFFLINE_TRANSCRIPT_NOTE);
  return notes;
}
