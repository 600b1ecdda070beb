/**
 * The built-in speech-to-text model: Debian's pocketsphinx with its US
 * English model (pocketsphinx-en-us), offline, nothing downloaded. It is
 * weak on anything but clear speech, so its transcripts are labelled basic
 * quality (decision 140). The recording is decoded with ffmpeg to 16 kHz mono,
 * checked (length, sample rate, silence), and transcribed in pieces of a few
 * minutes with progress after each, cut at the quietest moment near the cut.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { SpeechError, type TranscribeOptions, type Transcriber, type TranscriptSegment, type Transcription } from "#application/ports/speech";
import { decodeToPcm, MIN_SAMPLE_RATE, peakDecibels, pieceBoundaries, probeAudio, SAMPLE_RATE, toolsMissing, wavFile } from "./audio-tools";

const run = promisify(execFile);

export interface PocketsphinxOptions {
  command?: string;
  /** Seconds of audio per piece (progress is reported after each). */
  pieceSeconds?: number;
  /** The longest recording transcribed offline (about a quarter of its length in CPU time). */
  maxSeconds?: number;
}

/** One hour: pocketsphinx needs about a quarter of real time on one core, so an hour is ~15 minutes of work. */
export const MAX_OFFLINE_SECONDS = 60 * 60;
const SILENCE_DB = -50;
/** A pause this long, or a segment this long, starts a new segment. */
const SEGMENT_GAP_SECONDS = 0.8;
const SEGMENT_MAX_SECONDS = 20;

export const formatDuration = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
};

export class PocketsphinxTranscriber implements Transcriber {
  private readonly command: string;
  private readonly pieceSeconds: number;
  private readonly maxSeconds: number;

  constructor(options: PocketsphinxOptions = {}) {
    this.command = options.command ?? "pocketsphinx_continuous";
    this.pieceSeconds = options.pieceSeconds ?? 300;
    this.maxSeconds = options.maxSeconds ?? MAX_OFFLINE_SECONDS;
  }

  async transcribe(audio: Buffer, _contentType: string, options: TranscribeOptions = {}): Promise<Transcription> {
    const dir = await mkdtemp(path.join(tmpdir(), "docuchat-speech-"));
    try {
      const input = path.join(dir, "input");
      await writeFile(input, audio);
      const probe = await probeAudio(input, audio.subarray(0, 16));
      const limit = Math.min(this.maxSeconds, options.maxSeconds ?? Infinity);
      if (probe.durationSeconds > limit) {
        throw new SpeechError(
          "TOO_LONG",
          `This recording is ${formatDuration(probe.durationSeconds)} long; recordings up to ${formatDuration(limit)} can be transcribed offline. Split it into shorter parts, or add a key with a transcription model.`,
        );
      }
      if (probe.sampleRate > 0 && probe.sampleRate < MIN_SAMPLE_RATE) {
        throw new SpeechError(
          "SAMPLE_RATE",
          `This recording's sample rate (${probe.sampleRate} Hz) is too low for speech recognition; record at ${MIN_SAMPLE_RATE / 1000} kHz or more (16 kHz or higher is best).`,
        );
      }
      const pcm = await decodeToPcm(input, probe);
      const seconds = pcm.length / 2 / SAMPLE_RATE;
      if (seconds > limit + 1) {
        throw new SpeechError("TOO_LONG", `This recording is ${formatDuration(seconds)} long; recordings up to ${formatDuration(limit)} can be transcribed offline.`);
      }
      if (peakDecibels(pcm) < SILENCE_DB) throw new SpeechError("SILENCE", "This recording is silent: no speech could be heard in it, so there is nothing to transcribe.");

      const cuts = pieceBoundaries(pcm, this.pieceSeconds);
      const segments: TranscriptSegment[] = [];
      for (let i = 0; i + 1 < cuts.length; i++) {
        const from = cuts[i]!;
        const to = cuts[i + 1]!;
        let found = (await options.pieces?.get(i)) ?? null;
        if (!found) {
          const piece = path.join(dir, `piece-${i}.wav`);
          await writeFile(piece, wavFile(pcm.subarray(from * 2, to * 2)));
          found = toSegments(await this.recognise(piece, (to - from) / SAMPLE_RATE), from / SAMPLE_RATE);
          await options.pieces?.put(i, found);
        }
        segments.push(...found);
        await options.onProgress?.(to / SAMPLE_RATE, seconds);
      }
      if (segments.length === 0) {
        throw new SpeechError("NO_SPEECH", "No words could be recognised in this recording. Make sure it holds clear English speech, or add a key with a transcription model.");
      }
      return { text: segments.map((s) => s.text).join(" "), segments, durationSeconds: seconds, quality: "basic" };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Words with their times in the piece, from `-time yes` output ("word start end confidence"). */
  private async recognise(wav: string, seconds: number): Promise<RecognisedWord[]> {
    let stdout: string;
    try {
      ({ stdout } = await run(this.command, ["-infile", wav, "-time", "yes", "-logfn", "/dev/null"], {
        timeout: Math.max(120_000, seconds * 4000),
        maxBuffer: 32 * 1024 * 1024,
      }));
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") throw toolsMissing();
      throw error;
    }
    return parseTimedWords(stdout);
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
