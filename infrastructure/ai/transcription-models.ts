import { experimental_transcribe as transcribe, type TranscriptionModel } from "ai";
import type { ProviderKeyset } from "#application/ports/model-providers";
import { SpeechError, type TranscribeOptions, type Transcriber, type Transcription } from "#application/ports/speech";
import { DomainError } from "#domain/shared/domain-error";
import { transcribeInPieces } from "#infrastructure/speech/transcribe-in-pieces";
import { providerError } from "./provider-model";

/**
 * Transcription models of the user's keysets (decision 142): which providers
 * have them (those the `ai` SDK gives a transcription model: OpenAI and Azure
 * OpenAI), which of a keyset's models transcribe, and the Transcriber behind
 * the port. The recording takes the same path as offline transcription
 * (checks, 16 kHz mono, pieces with progress), each piece one API call.
 */

const TRANSCRIPTION_PROVIDERS = new Set(["OpenAI", "Azure/OpenAI"]);
export const STATIC_TRANSCRIPTION_MODELS: Record<string, string[]> = {
  OpenAI: ["gpt-4o-mini-transcribe", "gpt-4o-transcribe", "whisper-1"],
};
const TRANSCRIPTION_NAME = /whisper|transcribe/i;
/** Models that answer plain text (no segment times): they get one-minute pieces, each one timed segment. */
const TEXT_ONLY = /gpt-4o(-mini)?-transcribe/i;
/** Four hours: providers take 25 MB per call, and a 10-minute 16 kHz WAV piece is 19 MB. */
export const MAX_PROVIDER_SECONDS = 4 * 60 * 60;

export type SdkTranscriptionModel = Exclude<TranscriptionModel, string>;

export function offersTranscription(provider: string, subProvider: string): boolean {
  return TRANSCRIPTION_PROVIDERS.has(provider) || TRANSCRIPTION_PROVIDERS.has(`${provider}/${subProvider}`);
}

/** The listed transcription models (Azure: deployments named so) plus the provider's well-known ones, sorted. */
export function transcriptionModelsFor(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[] {
  if (!offersTranscription(keyset.provider, keyset.subProvider)) return [];
  const known = STATIC_TRANSCRIPTION_MODELS[keyset.provider] ?? [];
  return [...new Set([...listed.filter((m) => TRANSCRIPTION_NAME.test(m)), ...known])].sort();
}

export function noTranscriptionModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">): DomainError {
  const name = keyset.subProvider && keyset.subProvider !== keyset.provider ? `${keyset.provider} ${keyset.subProvider}` : keyset.provider;
  return new DomainError("PROVIDER_MODEL_NOT_FOUND", `${name} offers no transcription models. Choose another keyset for transcription.`);
}

export class ProviderTranscriber implements Transcriber {
  constructor(
    private readonly options: { id: string; modelId: string; model: SdkTranscriptionModel; maxSeconds?: number },
  ) {}

  get id(): string {
    return this.options.id;
  }

  transcribe(audio: Buffer, _contentType: string, options: TranscribeOptions = {}): Promise<Transcription> {
    const textOnly = TEXT_ONLY.test(this.options.modelId);
    return transcribeInPieces(audio, options, {
      pieceSeconds: textOnly ? 60 : 600,
      maxSeconds: this.options.maxSeconds ?? MAX_PROVIDER_SECONDS,
      tooLongAdvice: "Split it into shorter parts.",
      quality: "provider",
      recognise: async (wav, seconds) => {
        let result;
        try {
          result = await transcribe({
            model: this.options.model,
            audio: new Uint8Array(wav),
            // verbose_json with segment times, where the model gives them.
            providerOptions: textOnly ? { openai: {} } : { openai: { timestampGranularities: ["segment"] } },
            maxRetries: 1,
          });
        } catch (error) {
          // The SDK's "no transcript" for a piece with nothing said is not an error of the recording.
          if ((error as { name?: string }).name === "AI_NoTranscriptGeneratedError") return [];
          throw new SpeechError("PROVIDER", providerError(error).message);
        }
        if (result.segments.length > 0) {
          return result.segments.map((s) => ({ startSeconds: s.startSecond, endSeconds: s.endSecond, text: s.text }));
        }
        return result.text.trim() ? [{ startSeconds: 0, endSeconds: seconds, text: result.text }] : [];
      },
    });
  }
}
