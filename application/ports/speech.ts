/**
 * Speech: audio to timed text (documents, dictation) and text to audio
 * (read-aloud where the browser has no voice). The built-in adapters run
 * offline from Debian packages; providers come from the user's keysets.
 */

/** One stretch of speech with its place in the recording. */
export interface TranscriptSegment {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

export interface Transcription {
  /** The whole transcript as plain text. */
  text: string;
  /** Timed segments, in order; absent when the engine gives no times. */
  segments?: TranscriptSegment[];
  durationSeconds?: number;
  /** "basic": the built-in offline model, labelled so; "provider": a model of the user's keyset. */
  quality?: "basic" | "provider";
}

export interface TranscribeOptions {
  /** Called after each piece of a long recording (seconds of audio done, of the whole). */
  onProgress?: (secondsDone: number, secondsTotal: number) => Promise<void> | void;
  /** The user's transcription model, when chosen; otherwise the built-in offline one. */
  model?: { keysetId: string; model: string; ownerId: string } | null;
  /** Dictation: a short clip, refused above this many seconds. */
  maxSeconds?: number;
  /** Pieces already transcribed by an earlier attempt (a retried step resumes where it stopped). */
  pieces?: {
    get(index: number): Promise<TranscriptSegment[] | null>;
    put(index: number, segments: TranscriptSegment[]): Promise<void>;
  };
}

export interface Transcriber {
  /** Throws an Error marked `userFacing: true` (a {@link SpeechError}) whose message the user can read. */
  transcribe(audio: Buffer, contentType: string, options?: TranscribeOptions): Promise<Transcription>;
}

/** A reason the user can act on (no speech heard, not audio, too long…): never retried. */
export class SpeechError extends Error {
  readonly userFacing = true;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "SpeechError";
  }
}

/** A copy of a recording every browser plays and can seek in (a browser's WebM recording has no index to seek by). */
export interface PlaybackEncoder {
  playable(audio: Buffer): Promise<{ body: Buffer; contentType: string }>;
}

/** The spec's speech token (001 §9): a short-lived token of a cloud speech service, for the browser. */
export interface SpeechTokens {
  issue(): Promise<{ accessToken: string; region: string; expiresInSeconds: number }>;
}

/** Text to speech on the server, for browsers without voices. */
export interface SpeechSynthesizer {
  /** A WAV recording of the text, spoken. */
  synthesize(text: string): Promise<Buffer>;
}

export { OFFLINE_TRANSCRIPT_NOTE } from "#domain/library/transcript-pages";
