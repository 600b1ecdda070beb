/**
 * Word error rate of the built-in offline transcriber (pocketsphinx, decision 140) on read speech
 * synthesised with flite's voices, and its speed beside real time. Not a test: nothing is asserted.
 * flite is clear synthetic speech, so these figures are a best case; people's recordings do worse.
 *
 *   npx tsx bench/speech-wer.bench.ts
 */
import { performance } from "node:perf_hooks";
import { PocketsphinxTranscriber } from "#infrastructure/speech/pocketsphinx-transcriber";
import { concatenated, reencode, speak, wordErrorRate } from "#infrastructure/speech/test-support/spoken";

const SCRIPTS = [
  [
    "The quarterly budget meeting is scheduled for Friday morning.",
    "We will discuss the new marketing plan and hire two engineers.",
    "Please send your travel expenses to the finance office before noon.",
  ],
  [
    "Photosynthesis converts light energy into chemical energy stored in sugar.",
    "The process takes place in the chloroplasts of plant cells.",
    "Carbon dioxide and water are used, and oxygen is released.",
  ],
  [
    "The river Danube flows east through ten countries before reaching the Black Sea.",
    "Vienna and Budapest were both built on its banks.",
    "Ships carry grain and steel along the river all year round.",
  ],
];
// slt, rms and awb are 16 kHz voices; kal is flite's 8 kHz voice, like a telephone recording.
const VOICES = ["slt", "rms", "awb", "kal"];

const transcriber = new PocketsphinxTranscriber();
let errors = 0;
let words = 0;
let audioSeconds = 0;
let workSeconds = 0;
for (const voice of VOICES) {
  for (const [i, script] of SCRIPTS.entries()) {
    const clip = concatenated(script.map((line) => speak(line, voice)));
    // A browser's recording (Opus in WebM, as MediaRecorder makes it) and a usual mp3 (64 kbit/s).
    const webm = reencode(clip, "webm", ["-c:a", "libopus", "-b:a", "32k"]);
    const mp3 = reencode(clip, "mp3", ["-b:a", "64k"]);
    for (const [format, audio] of [["wav", clip], ["webm", webm], ["mp3", mp3]] as const) {
      const started = performance.now();
      const result = await transcriber.transcribe(audio, `audio/${format}`);
      workSeconds += (performance.now() - started) / 1000;
      audioSeconds += result.durationSeconds ?? 0;
      const reference = script.join(" ");
      const wer = wordErrorRate(reference, result.text);
      const n = reference.split(/\s+/).length;
      errors += wer * n;
      words += n;
      console.log(`${voice.padEnd(4)} script ${i + 1} ${format}: WER ${(wer * 100).toFixed(1)} %  "${result.text}"`);
    }
  }
}
console.log(`\noverall WER ${((errors / words) * 100).toFixed(1)} % over ${words} words; ${audioSeconds.toFixed(0)} s of audio in ${workSeconds.toFixed(0)} s (${(workSeconds / audioSeconds).toFixed(2)}× real time)`);
