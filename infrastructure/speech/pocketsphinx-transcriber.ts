/**
 * The built-in speech-to-text model: Debian's pocketsphinx with its US
 * English model (pocketsphinx-en-us), offline, nothing downloaded. It is
 * weak on anything but clear speech, so its transcripts are labelled basic
 * quality (decision 140). The recording is decoded with ffmpeg to 16 kHz mono,
 * checked (length, sample rate, silence), and transcribed in pieces of a few
 * minutes with progress after each, cut at the quietest moment near the cut.
 */
import { execFile } from "node:child_process";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TranscribeOptions, Transcriber, TranscriptSegment, Transcription } from "#application/ports/speech";
import { toolsMissing } from "./audio-tools";
import { transcribeInPieces } from "./transcribe-in-pieces";

const run = promisify(execFile);

export interface PocketsphinxOptions {
  command?: string;
  /** Seconds of audio per piece (progress is reported after each). */
  pieceSeconds?: number;
  /** The longest recording transcribed offline. */
  maxSeconds?: number;
}

/** One hour: pocketsphinx needs roughly 0.3–0.8 of real time on one shared core, so an hour is up to ~50 minutes of work. */
export const MAX_OFFLINE_SECONDS = 60 * 60;
/** A pause this long, or a segment this long, starts a new segment. */
const SEGMENT_GAP_SECONDS = 0.8;
const SEGMENT_MAX_SECONDS = 20;

export class PocketsphinxTranscriber implements Transcriber {
  private readonly command: string;
  private readonly pieceSeconds: number;
  private readonly maxSeconds: number;

  constructor(options: PocketsphinxOptions = {}) {
    this.command = options.command ?? "pocketsphinx_continuous";
    this.pieceSeconds = options.pieceSeconds ?? 300;
    this.maxSeconds = options.maxSeconds ?? MAX_OFFLINE_SECONDS;
  }

  transcribe(audio: Buffer, _contentType: string, options: TranscribeOptions = {}): Promise<Transcription> {
    return transcribeInPieces(audio, options, {
      pieceSeconds: this.pieceSeconds,
      maxSeconds: this.maxSeconds,
      tooLongAdvice: "Split it into shorter parts, or add a key with a transcription model.",
      quality: "basic",
      recognise: (wav, seconds) => this.recognise(wav, seconds),
    });
  }

  /** Words with their times in the piece, from `-time yes` output ("word start end confidence"), grouped into segments. */
  private async recognise(wav: Buffer, seconds: number): Promise<TranscriptSegment[]> {
    const dir = await mkdtemp(path.join(tmpdir(), "docuchat-sphinx-"));
    try {
      const file = path.join(dir, "piece.wav");
      await writeFile(file, wav);
      const { stdout } = await run(...dyingWithParent(this.command, ["-infile", file, "-time", "yes", "-logfn", "/dev/null"]), {
        timeout: Math.max(120_000, seconds * 4000),
        maxBuffer: 32 * 1024 * 1024,
      });
      return toSegments(parseTimedWords(stdout), 0);
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") throw toolsMissing();
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

export interface RecognisedWord {
  /** "" for a marker: silence, noise, or an utterance's start or end. */
  word: string;
  start: number;
  end: number;
  /** The utterance starts or ends here. */
  boundary?: boolean;
}

/** Lines of four fields, the last three numbers, are timed words; markers (<s>, <sil>, [NOISE]) separate utterances. */
export function parseTimedWords(output: string): RecognisedWord[] {
  const words: RecognisedWord[] = [];
  for (const line of output.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 4 || !fields.slice(1).every((f) => /^-?\d+(\.\d+)?$/.test(f))) continue;
    const [raw, start, end] = fields as [string, string, string, string];
    const word = raw.replace(/\(\d+\)$/, "");
    const marker = /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(word);
    words.push({ word: marker ? "" : word, start: Number(start), end: Number(end), boundary: word === "<s>" || word === "</s>" });
  }
  return words;
}

/** Words grouped into segments at pauses and utterance marks, shifted by the piece's start in the recording. */
export function toSegments(words: RecognisedWord[], offsetSeconds: number): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let current: { start: number; end: number; words: string[] } | null = null;
  const close = () => {
    if (current && current.words.length > 0) {
      segments.push({ startSeconds: round(offsetSeconds + current.start), endSeconds: round(offsetSeconds + current.end), text: current.words.join(" ") });
    }
    current = null;
  };
  for (const w of words) {
    if (!w.word) {
      if (w.boundary || w.end - w.start >= SEGMENT_GAP_SECONDS) close();
      continue;
    }
    const c = current as { start: number; end: number; words: string[] } | null;
    if (c && (w.start - c.end >= SEGMENT_GAP_SECONDS || w.end - c.start > SEGMENT_MAX_SECONDS)) close();
    if (!current) current = { start: w.start, end: w.end, words: [] };
    current.words.push(w.word);
    current.end = w.end;
  }
  close();
  return segments;
}

const round = (n: number) => Math.round(n * 100) / 100;
