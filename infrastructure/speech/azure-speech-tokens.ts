import type { Egress } from "#application/ports/egress";
import { SpeechError, type SpeechTokens } from "#application/ports/speech";

/** The spec's token lifetime (001 §9): 8 minutes; Azure's tokens last 10, so the browser refreshes before they lapse. */
export const SPEECH_TOKEN_SECONDS = 8 * 60;

/**
 * Speech tokens of Azure AI Speech: the server's key is exchanged for a
 * 10-minute token at the region's issueToken endpoint (through the egress
 * module), so the key itself never reaches a browser.
 */
export class AzureSpeechTokens implements SpeechTokens {
  constructor(
    private readonly egress: Egress,
    private readonly options: { key: string; region: string; tokenUrl?: string },
  ) {}

  async issue(): Promise<{ accessToken: string; region: string; expiresInSeconds: number }> {
    const url = this.options.tokenUrl ?? `https://${this.options.region}.api.cognitive.microsoft.com/sts/v1.0/issueToken`;
    if (!this.egress.fetchStream) throw new SpeechError("SPEECH_UNAVAILABLE", "This server cannot reach the speech service.");
    let response: Response;
    try {
      response = await this.egress.fetchStream({ url, method: "POST", headers: { "Ocp-Apim-Subscription-Key": this.options.key, "Content-Length": "0" }, body: "", maxBytes: 64 * 1024, timeoutMs: 15_000 });
    } catch {
      throw new SpeechError("SPEECH_UNAVAILABLE", "The speech service could not be reached. Try again shortly.");
    }
    const token = (await response.text()).trim();
    if (!response.ok || !token) {
      throw new SpeechError("SPEECH_UNAVAILABLE", response.status === 401 || response.status === 403 ? "The speech service refused this server's key." : `The speech service did not issue a token (HTTP ${response.status}).`);
    }
    return { accessToken: token, region: this.options.region, expiresInSeconds: SPEECH_TOKEN_SECONDS };
  }
}
