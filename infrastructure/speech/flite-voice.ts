import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { SpeechError, type SpeechSynthesizer } from "#application/ports/speech";

const run = promisify(execFile);

/**
 * The server's voice for browsers without one (headless Chromium, some Linux
 * desktops): Debian's flite with its 16 kHz US English "slt" voice, the
 * clearest of those it ships; espeak-ng when flite is missing. The text goes
 * in through a file, so nothing in it can be read as an option.
 */
export class FliteVoice implements SpeechSynthesizer {
  constructor(private readonly options: { voice?: string; timeoutMs?: number } = {}) {}

  async synthesize(text: string): Promise<Buffer> {
    const dir = await mkdtemp(path.join(tmpdir(), "docuchat-voice-"));
    try {
      const input = path.join(dir, "text.txt");
      await writeFile(input, text, "utf8");
      const timeout = this.options.timeoutMs ?? 60_000;
      try {
        // Into a file: flite cannot open /dev/stdout when it is a socket (as Node's child stdout is).
        const output = path.join(dir, "speech.wav");
        await run("flite", ["-voice", this.options.voice ?? "slt", "-f", input, "-o", output], { timeout });
        return await readFile(output);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "ENOENT") throw new SpeechError("SYNTHESIS_FAILED", "The server's voice could not read this text.");
      }
      try {
        const { stdout } = await run("espeak-ng", ["-v", "en-us", "-f", input, "--stdout"], { encoding: "buffer", timeout, maxBuffer: 64 * 1024 * 1024 });
        return stdout;
      } catch {
        throw new SpeechError("SYNTHESIS_UNAVAILABLE", "The server has no voice installed (flite or espeak-ng), so it cannot read aloud.");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
