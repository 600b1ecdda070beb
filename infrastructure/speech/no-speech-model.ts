import type { Transcriber } from "#application/ports/web-sources";

/**
 * What transcription does until a speech model is configured (provider keys
 * arrive with keysets): the audio document fails with a reason the user can
 * act on, instead of pretending to have a transcript.
 */
export class NoSpeechModel implements Transcriber {
  async transcribe(): Promise<{ text: string }> {
    throw Object.assign(
      new Error("Audio needs a speech-to-text model, and none is configured yet, so this recording could not be transcribed."),
      { userFacing: true },
    );
  }
}
