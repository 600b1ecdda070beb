import { describe, expect, it } from "vitest";
import { FliteVoice } from "./flite-voice";
import { PocketsphinxTranscriber } from "./pocketsphinx-transcriber";
import { speechToolsInstalled } from "./test-support/spoken";

describe.skipIf(!speechToolsInstalled())("the server's voice", () => {
  it("speaks the text as a WAV the offline transcriber hears back", async () => {
    const wav = await new FliteVoice().synthesize("Black tea is fully oxidised. Green tea is not.");
    expect(wav.toString("latin1", 0, 4)).toBe("RIFF");
    const heard = await new PocketsphinxTranscriber().transcribe(wav, "audio/wav");
    expect(heard.text).toMatch(/fully oxidized/);
  });

  it("reads a text that looks like an option as text", async () => {
    const wav = await new FliteVoice().synthesize("--help");
    expect(wav.length).toBeGreaterThan(1000);
  });
});
