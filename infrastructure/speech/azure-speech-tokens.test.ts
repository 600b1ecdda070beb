import { afterEach, describe, expect, it } from "vitest";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { AzureSpeechTokens } from "./azure-speech-tokens";

/** The speech token against a local server replaying Azure AI Speech's issueToken (a POST with the key header, a JWT as text). */
const HOST = "eastus.speech.example.test";
let site: LocalSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

async function serve() {
  site = await startLocalSite((req, res) => {
    if (req.method === "POST" && req.url === "/sts/v1.0/issueToken" && req.headers["ocp-apim-subscription-key"] === "speech-key") {
      res.writeHead(200, { "content-type": "application/jwt; charset=us-ascii" }).end("eyJhbGciOi.token.sig");
      return;
    }
    res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "401", message: "Access denied due to invalid subscription key." } }));
  }, HOST);
  return `${site.origin}/sts/v1.0/issueToken`;
}

describe("the speech token of Azure AI Speech", () => {
  it("exchanges the server's key for a token the browser may use for the spec's 8 minutes", async () => {
    const tokens = new AzureSpeechTokens(egressFor(HOST), { key: "speech-key", region: "eastus", tokenUrl: await serve() });
    expect(await tokens.issue()).toEqual({ accessToken: "eyJhbGciOi.token.sig", region: "eastus", expiresInSeconds: 480 });
  });

  it("says so when the service refuses the key, instead of inventing a token", async () => {
    const tokens = new AzureSpeechTokens(egressFor(HOST), { key: "wrong", region: "eastus", tokenUrl: await serve() });
    await expect(tokens.issue()).rejects.toMatchObject({ userFacing: true, message: "The speech service refused this server's key." });
  });
});
