/** Limits of the server's speech routes (decision 144), shared by the routes and the browser that calls them. */

/** Characters one request to the server's voice may ask to be spoken; longer text is read in parts. */
export const MAX_SPOKEN_CHARS = 1500;
/** A dictated question: at most a minute of speech, at most 2 MB of recording. */
export const MAX_DICTATION_SECONDS = 60;
export const MAX_DICTATION_BYTES = 2 * 1024 * 1024;

/** Requests per user per minute: the voice (a long answer is a few parts) and dictated questions. */
export const VOICE_REQUESTS_PER_MINUTE = 60;
export const DICTATIONS_PER_MINUTE = 20;

/** Text cut into parts of at most `max` characters, at sentence ends where possible, so long answers are read part by part. */
export function voiceParts(text: string, max = MAX_SPOKEN_CHARS): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const sentenceEnd = Math.max(window.lastIndexOf(". "), window.lastIndexOf("? "), window.lastIndexOf("! "));
    const cut = sentenceEnd > max / 3 ? sentenceEnd + 1 : window.lastIndexOf(" ") > 0 ? window.lastIndexOf(" ") : max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
