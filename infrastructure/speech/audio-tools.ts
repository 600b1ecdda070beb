/**
 * Reading recordings with Debian's ffmpeg/ffprobe: what a file is (probe),
 * and its sound as 16 kHz mono 16-bit PCM, the form the speech models take.
 * External programs, so the Node process never loads audio codecs itself.
 */
import { execFile } from "node:child_process";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";
import { promisify } from "node:util";
import { SpeechError } from "#application/ports/speech";

const run = promisify(execFile);

export const SAMPLE_RATE = 16_000;
/** Below this the words are gone (telephone audio is 8 kHz; the models are trained on 16 kHz). */
export const MIN_SAMPLE_RATE = 8_000;

export interface AudioProbe {
  durationSeconds: number;
  codec: string;
  sampleRate: number;
  channels: number;
  format: string;
}

const isMissingProgram = (error: unknown) => typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";

export const toolsMissing = () =>
  new SpeechError("SPEECH_UNAVAILABLE", "Recordings cannot be transcribed on this server right now because its speech tools (ffmpeg, pocketsphinx) are not installed.");

const looksLikeWav = (bytes: Buffer) => bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WAVE";

/** What the file holds; a file that is not audio, or whose sound cannot be decoded, ends with a reason. */
export async function probeAudio(path: string, head: Buffer): Promise<AudioProbe> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      ...dyingWithParent("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,sample_rate,channels:format=duration,format_name", "-of", "json", path]),
      { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
    ));
  } catch (error) {
    if (isMissingProgram(error)) throw toolsMissing();
    if (looksLikeWav(head)) throw new SpeechError("CORRUPT_AUDIO", "This WAV recording is damaged: its header could not be read, so it could not be transcribed.");
    throw new SpeechError("NOT_AUDIO", "This file is not a recording that could be read, so it could not be transcribed. Upload an audio file (mp3, wav, m4a, ogg, webm, flac or aac).");
  }
  const parsed = JSON.parse(stdout) as {
    streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number }[];
    format?: { duration?: string; format_name?: string };
  };
  const audio = parsed.streams?.find((s) => s.codec_type === "audio");
  if (!audio) throw new SpeechError("NOT_AUDIO", "This file has no sound in it, so there is nothing to transcribe.");
  const codec = audio.codec_name ?? "";
  if (!codec || codec === "none" || codec === "unknown") {
    throw new SpeechError("UNSUPPORTED_CODEC", "This recording is in a sound format that cannot be decoded here. Save it as mp3, wav, m4a, ogg, flac or webm and upload it again.");
  }
  return {
    durationSeconds: Number(parsed.format?.duration ?? "0") || 0,
    codec,
    sampleRate: Number(audio.sample_rate ?? "0") || 0,
    channels: audio.channels ?? 0,
    format: parsed.format?.format_name ?? "",
  };
}

/** The recording as 16 kHz mono signed 16-bit little-endian samples. */
export async function decodeToPcm(path: string, probe: AudioProbe): Promise<Buffer> {
  try {
    const { stdout } = await run(...dyingWithParent("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "s16le", "-acodec", "pcm_s16le", "pipe:1"]), {
      encoding: "buffer",
      timeout: Math.max(60_000, probe.durationSeconds * 1000),
      maxBuffer: Math.ceil((probe.durationSeconds + 60) * SAMPLE_RATE * 2),
    });
    if (stdout.length < SAMPLE_RATE * 2 * 0.1) throw new Error("no samples");
    return stdout;
  } catch (error) {
    if (isMissingProgram(error)) throw toolsMissing();
    const detail = String((error as { stderr?: Buffer | string }).stderr ?? "");
    if (/decoder|codec/i.test(detail) && /not found|unsupported|unknown/i.test(detail)) {
      throw new SpeechError("UNSUPPORTED_CODEC", `This recording's sound format (${probe.codec}) cannot be decoded here. Save it as mp3, wav, m4a, ogg, flac or webm and upload it again.`);
    }
    throw new SpeechError("CORRUPT_AUDIO", "This recording is damaged: its sound could not be decoded, so it could not be transcribed.");
  }
}

/** The loudest sample, in dB below full scale (silence is below about -50 dB). */
export function peakDecibels(pcm: Buffer): number {
  let peak = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) {
    const v = Math.abs(pcm.readInt16LE(i));
    if (v > peak) peak = v;
  }
  return peak === 0 ? -Infinity : 20 * Math.log10(peak / 32768);
}

/** A WAV file around 16 kHz mono 16-bit samples. */
export function wavFile(pcm: Buffer, sampleRate = SAMPLE_RATE): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVE", 8, "latin1");
  header.write("fmt ", 12, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/**
 * Cut points (in samples) for pieces of about `pieceSeconds`, each moved to
 * the quietest tenth of a second within `slackSeconds` of the nominal cut, so
 * a word is rarely split between two pieces.
 */
export function pieceBoundaries(pcm: Buffer, pieceSeconds: number, slackSeconds = 10): number[] {
  const total = Math.floor(pcm.length / 2);
  const piece = pieceSeconds * SAMPLE_RATE;
  const window = SAMPLE_RATE / 10;
  const cuts = [0];
  let next = piece;
  while (next < total - SAMPLE_RATE * 5) {
    let best = next;
    let bestEnergy = Infinity;
    const from = Math.max(cuts[cuts.length - 1]! + window, next - slackSeconds * SAMPLE_RATE);
    const to = Math.min(total - window, next + slackSeconds * SAMPLE_RATE);
    for (let start = from; start <= to; start += window) {
      let energy = 0;
      for (let i = start; i < start + window; i += 4) energy += Math.abs(pcm.readInt16LE(i * 2));
      if (energy < bestEnergy) {
        bestEnergy = energy;
        best = start + window / 2;
      }
    }
    cuts.push(Math.floor(best));
    next = Math.floor(best) + piece;
  }
  cuts.push(total);
  return cuts;
}

/** The recording as mono 64 kbit/s MP3, which every browser plays and seeks in. */
export async function playableMp3(path: string, durationSeconds: number): Promise<Buffer> {
  try {
    const { stdout } = await run(...dyingWithParent("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vn", "-ac", "1", "-codec:a", "libmp3lame", "-b:a", "64k", "-f", "mp3", "pipe:1"]), {
      encoding: "buffer",
      timeout: Math.max(60_000, durationSeconds * 1000),
      maxBuffer: Math.ceil((durationSeconds + 60) * 8000) + 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    if (isMissingProgram(error)) throw toolsMissing();
    throw new SpeechError("CORRUPT_AUDIO", "This recording could not be prepared for playback.");
  }
}
