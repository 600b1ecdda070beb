import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { TranscribeOptions, Transcriber, Transcription } from "#application/ports/speech";
import { KeysetModels } from "#application/identity/keyset-models";
import { DomainError } from "#domain/shared/domain-error";

/**
 * Which transcriber hears a recording (decision 142): the model of the user's
 * keyset when one is chosen (the upload's advanced settings), else the
 * built-in offline one. A chosen keyset that is gone (deleted, or never this
 * user's) falls back to offline and says so; its key is never used.
 */
@injectable()
export class SpeechToText {
  constructor(
    @inject(TOKENS.Transcriber) private readonly offline: Transcriber,
    @inject(KeysetModels) private readonly keysets: KeysetModels,
  ) {}

  async transcribe(audio: Buffer, contentType: string, options: TranscribeOptions = {}): Promise<Transcription & { notes: string[] }> {
    const choice = options.model;
    if (choice) {
      let provider: Transcriber | null = null;
      try {
        provider = await this.keysets.transcriber(choice.ownerId, choice);
      } catch (error) {
        if (!(error instanceof DomainError && (error.code === "KEYSET_NOT_FOUND" || error.code === "PROVIDER_MODEL_NOT_FOUND"))) throw error;
      }
      if (provider) return { ...(await provider.transcribe(audio, contentType, options)), notes: [] };
      const result = await this.offline.transcribe(audio, contentType, { ...options, model: null });
      return { ...result, notes: ["The chosen transcription model is no longer available, so this recording was transcribed offline."] };
    }
    return { ...(await this.offline.transcribe(audio, contentType, options)), notes: [] };
  }
}
