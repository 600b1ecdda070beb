import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PlaybackEncoder } from "#application/ports/speech";
import { playableMp3, probeAudio } from "./audio-tools";

/** Recordings are played from an MP3 copy made with ffmpeg: it has a duration and seeks, which a MediaRecorder WebM does not. */
export class Mp3Playback implements PlaybackEncoder {
  async playable(audio: Buffer): Promise<{ body: Buffer; contentType: string }> {
    const dir = await mkdtemp(path.join(tmpdir(), "docuchat-playback-"));
    try {
      const input = path.join(dir, "input");
      await writeFile(input, audio);
      const probe = await probeAudio(input, audio.subarray(0, 16));
      return { body: await playableMp3(input, probe.durationSeconds), contentType: "audio/mpeg" };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
