/**
 * Recordings for speech tests, made at test time with Debian's flite (clear
 * synthetic read speech) and ffmpeg, never committed as fixtures.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const works = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether flite, ffmpeg and pocketsphinx (with its English model) are installed; scripts/install-system-deps.sh
 * installs them. Without them the speech suites skip and say why, never pass without listening.
 */
export const speechToolsInstalled = (): boolean =>
  works("flite", ["-h"]) && works("ffmpeg", ["-version"]) && works("sh", ["-c", "command -v pocketsphinx_continuous"]) && works("test", ["-d", "/usr/share/pocketsphinx/model/en-us"]);

function inTemp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "docuchat-spoken-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text spoken by flite's 16 kHz US English voice, as a WAV file. */
export function speak(text: string, voice = "slt"): Buffer {
  return inTemp((dir) => {
    const out = path.join(dir, "speech.wav");
    execFileSync("flite", ["-voice", voice, "-t", text, "-o", out]);
    return readFileSync(out);
  });
}

/** Re-encodes a recording with ffmpeg (format by extension; extra arguments such as ["-ar", "11025"]). */
export function reencode(audio: Buffer, extension: string, args: string[] = []): Buffer {
  return inTemp((dir) => {
    const input = path.join(dir, "in.wav");
    const out = path.join(dir, `out.${extension}`);
    writeFileSync(input, audio);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", input, ...args, out]);
    return readFileSync(out);
  });
}

/** Generated sound with ffmpeg's lavfi sources ("anullsrc=r=16000:cl=mono" for silence), `seconds` long. */
export function generated(source: string, seconds: number, extension: string, args: string[] = []): Buffer {
  return inTemp((dir) => {
    const out = path.join(dir, `out.${extension}`);
    execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-t", String(seconds), ...args, out]);
    return readFileSync(out);
  });
}

/** Recordings played one after another (with `gapSeconds` of silence between), as one 16 kHz WAV. */
export function concatenated(clips: Buffer[], gapSeconds = 1): Buffer {
  return inTemp((dir) => {
    const inputs: string[] = [];
    clips.forEach((clip, i) => {
      const file = path.join(dir, `clip-${i}.wav`);
      writeFileSync(file, clip);
      inputs.push(file);
    });
    const out = path.join(dir, "joined.wav");
    const filters = inputs.map((_, i) => `[${i}:a]aresample=16000,apad=pad_dur=${gapSeconds}[a${i}]`).join(";");
    const labels = inputs.map((_, i) => `[a${i}]`).join("");
    execFileSync("ffmpeg", ["-v", "error", "-y", ...inputs.flatMap((f) => ["-i", f]), "-filter_complex", `${filters};${labels}concat=n=${inputs.length}:v=0:a=1[out]`, "-map", "[out]", "-ac", "1", out]);
    return readFileSync(out);
  });
}

/** Word error rate: word-level edit distance over the reference's word count. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (t: string) => t.toLowerCase().replace(/[^a-z0-9' ]+/g, " ").split(/\s+/).filter(Boolean);
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return ref.length === 0 ? 0 : previous[hyp.length]! / ref.length;
}

/** Seconds of a PCM WAV, read from its chunks (ffmpeg writes a LIST chunk before the data). */
export function wavSeconds(wav: Buffer): number {
  let byteRate = 0;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.toString("latin1", at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === "fmt ") byteRate = wav.readUInt32LE(at + 16);
    if (id === "data") return byteRate > 0 ? Math.min(size, wav.length - at - 8) / byteRate : 0;
    at += 8 + size + (size % 2);
  }
  return 0;
}
