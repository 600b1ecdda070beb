import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SpeechError, type TranscribeOptions, type TranscriptSegment, type Transcription } from "#application/ports/speech";
import { decodeToPcm, MIN_SAMPLE_RATE, peakDecibels, pieceBoundaries, probeAudio, SAMPLE_RATE, wavFile } from "./audio-tools";

const SILENCE_DB = -50;

export const formatDuration = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
};

export interface PieceEngine {
  /** Seconds of audio per piece (progress is reported after each). */
  pieceSeconds: number;
  /** The longest recording this engine takes. */
  maxSeconds: number;
  /** What the limit message offers instead ("add a key with a transcription model"). */
  tooLongAdvice: string;
  quality: Transcription["quality"];
  /** One piece (a 16 kHz mono WAV), its segments timed within the piece. */
  recognise(wav: Buffer, seconds: number): Promise<TranscriptSegment[]>;
}

/**
 * The path every transcriber shares (decision 140): say what the file is and
 * refuse what cannot be transcribed with a reason (not audio, damaged, codec,
 * sample rate, too long, silent), decode it to 16 kHz mono, and transcribe it
 * piece by piece — each cut at a quiet moment, reported as progress, and kept
 * (options.pieces) so a retried step resumes at the next piece.
 */
export async function transcribeInPieces(audio: Buffer, options: TranscribeOptions, engine: PieceEngine): Promise<Transcription> {
  const dir = await mkdtemp(path.join(tmpdir(), "docuchat-speech-"));
  try {
    const input = path.join(dir, "input");
    await writeFile(input, audio);
    const probe = await probeAudio(input, audio.subarray(0, 16));
    const limit = Math.min(engine.maxSeconds, options.maxSeconds ?? Infinity);
    const tooLong = (seconds: number) =>
      new SpeechError("TOO_LONG", `This recording is ${formatDuration(seconds)} long; recordings up to ${formatDuration(limit)} can be transcribed ${engine.quality === "basic" ? "offline" : "here"}. ${engine.tooLongAdvice}`);
    if (probe.durationSeconds > limit) throw tooLong(probe.durationSeconds);
    if (probe.sampleRate > 0 && probe.sampleRate < MIN_SAMPLE_RATE) {
      throw new SpeechError(
        "SAMPLE_RATE",
        `This recording's sample rate (${probe.sampleRate} Hz) is too low for speech recognition; record at ${MIN_SAMPLE_RATE / 1000} kHz or more (16 kHz or higher is best).`,
      );
    }
    const pcm = await decodeToPcm(input, probe);
    const seconds = pcm.length / 2 / SAMPLE_RATE;
    if (seconds > limit + 1) throw tooLong(seconds);
    if (peakDecibels(pcm) < SILENCE_DB) throw new SpeechError("SILENCE", "This recording is silent: no speech could be heard in it, so there is nothing to transcribe.");

    const cuts = pieceBoundaries(pcm, engine.pieceSeconds);
    const segments: TranscriptSegment[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const from = cuts[i]!;
      const to = cuts[i + 1]!;
      let found = (await options.pieces?.get(i)) ?? null;
      if (!found) {
        const offset = from / SAMPLE_RATE;
        found = (await engine.recognise(wavFile(pcm.subarray(from * 2, to * 2)), (to - from) / SAMPLE_RATE)).map((s) => ({
          startSeconds: round(offset + s.startSeconds),
          endSeconds: round(offset + s.endSeconds),
          text: s.text.trim(),
        }));
        await options.pieces?.put(i, found);
      }
      segments.push(...found.filter((s) => s.text));
      await options.onProgress?.(to / SAMPLE_RATE, seconds);
    }
    if (segments.length === 0) {
      throw new SpeechError(
        "NO_SPEECH",
        `No words could be recognised in this recording. Make sure it holds clear ${engine.quality === "basic" ? "English " : ""}speech${engine.quality === "basic" ? ", or add a key with a transcription model" : ""}.`,
      );
    }
    return { text: segments.map((s) => s.text).join(" "), segments, durationSeconds: seconds, quality: engine.quality };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
