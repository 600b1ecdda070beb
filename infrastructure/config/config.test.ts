import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "cfg-"));

describe("configuration", () => {
  it("chooses every embedded adapter when no server variable is set", () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.adapters).toEqual({
      eventStore: "sqlite",
      readModels: "sqlite",
      search: "sqlite",
      blobs: "local",
      integrationEvents: "none",
      jobs: "embedded",
      workflows: "embedded",
      mail: "dev-mailbox",
      payments: "disabled",
    });
  });

  it("gives an upload an hour for its file unless UPLOAD_DEADLINE_MS says otherwise, and refuses a deadline that is no number", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).uploadDeadlineMs).toBe(60 * 60_000);
    expect(loadConfig({ DATA_DIR: dataDir(), UPLOAD_DEADLINE_MS: "5000" }).uploadDeadlineMs).toBe(5000);
    expect(() => loadConfig({ DATA_DIR: dataDir(), UPLOAD_DEADLINE_MS: "soon" })).toThrowError(/UPLOAD_DEADLINE_MS/);
  });

  it("switches one adapter per variable", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), REDIS_URL: "redis://127.0.0.1:6379" });
    expect(config.adapters.jobs).toBe("bullmq");
    expect(config.adapters.eventStore).toBe("sqlite");
  });

  it("switches the search index to Qdrant with QDRANT_URL, with an optional API key and collection", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), QDRANT_URL: "http://qdrant:6333" });
    expect(config.adapters.search).toBe("qdrant");
    expect(config.raw.QDRANT_COLLECTION).toBe("docuchat_chunks");
    expect(config.raw.QDRANT_API_KEY).toBeUndefined();
    const custom = loadConfig({ DATA_DIR: dataDir(), QDRANT_URL: "https://x.cloud.qdrant.io:6333", QDRANT_API_KEY: "k", QDRANT_COLLECTION: "team-a_chunks" });
    expect([custom.raw.QDRANT_API_KEY, custom.raw.QDRANT_COLLECTION]).toEqual(["k", "team-a_chunks"]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), QDRANT_URL: "qdrant:6333" })).toThrowError(/QDRANT_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), QDRANT_URL: "http://qdrant:6333", QDRANT_COLLECTION: "a/b" })).toThrowError(/QDRANT_COLLECTION/);
  });

  it("configures one payment provider with its keys and webhook secret, and refuses half a configuration or two providers", () => {
    const stripe = loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" });
    expect(stripe.payments).toEqual({ provider: "stripe", secretKey: "sk_test_1", webhookSecret: "whsec_1", apiUrl: undefined });
    expect(stripe.adapters.payments).toBe("stripe");
    const razorpay = loadConfig({ DATA_DIR: dataDir(), RAZORPAY_KEY_ID: "rzp_test_1", RAZORPAY_KEY_SECRET: "secret-123", RAZORPAY_WEBHOOK_SECRET: "hook-secret" });
    expect(razorpay.payments).toMatchObject({ provider: "razorpay", keyId: "rzp_test_1", checkoutScriptUrl: "https://checkout.razorpay.com/v1/checkout.js" });
    expect(loadConfig({ DATA_DIR: dataDir() }).payments).toBeNull();
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: "sk_test_1" })).toThrowError(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: "pk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrowError(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), RAZORPAY_KEY_ID: "rzp_test_1" })).toThrowError(/RAZORPAY_KEY_SECRET/);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", RAZORPAY_KEY_ID: "rzp_test_1", RAZORPAY_KEY_SECRET: "secret-123", RAZORPAY_WEBHOOK_SECRET: "hook-secret" }),
    ).toThrowError(/not both/);
  });

  it("stops with a message naming the variable when a value is bad", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: "eighty" })).toThrowError(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), MONGODB_URL: "not a url" })).toThrowError(/MONGODB_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), APP_SECRET: "short" })).toThrowError(/APP_SECRET/);
  });

  it("reads when the assessment offer closes, and refuses a date it cannot read", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).assessmentOfferClosesAt).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), INTERVIEW_DEADLINE: "2024-11-30T23:59:59Z" }).assessmentOfferClosesAt?.toISOString()).toBe("2024-11-30T23:59:59.000Z");
    expect(() => loadConfig({ DATA_DIR: dataDir(), INTERVIEW_DEADLINE: "end of November" })).toThrowError(/INTERVIEW_DEADLINE/);
  });

  it("requires an explicit secret in production and keeps a generated one elsewhere", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), DEPLOYMENT_ENV: "production" })).toThrow(ConfigError);
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(loadConfig({ DATA_DIR: dir }).appSecret);
  });

  it("takes fixed name resolutions for .test names from EGRESS_TEST_HOSTS, and refuses them in production", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).egressTestHosts).toEqual({});
    const config = loadConfig({ DATA_DIR: dataDir(), EGRESS_TEST_HOSTS: "Site.DocuChat.test=127.0.0.1, site.docuchat.test=::1,api.example.test=10.0.0.7" });
    expect(config.egressTestHosts).toEqual({ "site.docuchat.test": ["127.0.0.1", "::1"], "api.example.test": ["10.0.0.7"] });
    for (const bad of ["docs.example.com=127.0.0.1", "site.docuchat.test=localhost", "site.docuchat.test", "a.test=1.2.3.4=5"]) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), EGRESS_TEST_HOSTS: bad }), bad).toThrowError(/EGRESS_TEST_HOSTS/);
    }
    const production = { DATA_DIR: dataDir(), DEPLOYMENT_ENV: "production", APP_SECRET: "x".repeat(32), EGRESS_TEST_HOSTS: "site.docuchat.test=127.0.0.1", SMTP_URL: "smtp://mail.example.com:587" };
    expect(() => loadConfig(production)).toThrowError(/EGRESS_TEST_HOSTS: a test-only setting/);
  });

  it("refuses to start in production without a mail server, naming SMTP_URL (the dev mailbox would hand out codes)", () => {
    const production = { DATA_DIR: dataDir(), DEPLOYMENT_ENV: "production", APP_SECRET: "p".repeat(40) };
    expect(() => loadConfig(production)).toThrowError(/SMTP_URL: required when DEPLOYMENT_ENV is production/);
    const withMail = loadConfig({ ...production, SMTP_URL: "smtp://mail.example.com:587" });
    expect(withMail.adapters.mail).toBe("smtp");
    // Elsewhere the dev mailbox stays the default, so a fresh clone starts with no set-up.
    expect(loadConfig({ DATA_DIR: dataDir(), DEPLOYMENT_ENV: "staging" }).adapters.mail).toBe("dev-mailbox");
  });

  it("derives the public URL, the sender and the OpenID redirect URL", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), HOST: "127.0.0.1", PORT: "4000" });
    expect(config.publicUrl).toBe("http://127.0.0.1:4000");
    expect(config.mailFrom).toBe("DocuChat <no-reply@127.0.0.1>");
    expect(config.oidc).toBeNull();
    const withOidc = loadConfig({
      DATA_DIR: dataDir(),
      PUBLIC_URL: "https://docs.example.com/",
      OIDC_ISSUER: "https://accounts.google.com",
      OIDC_CLIENT_ID: "client",
      OIDC_CLIENT_SECRET: "secret",
    });
    expect(withOidc.oidc).toEqual({
      issuer: "https://accounts.google.com",
      clientId: "client",
      clientSecret: "secret",
      providerName: "Google",
      redirectUrl: "https://docs.example.com/auth/oidc/callback",
    });
  });

  it("refuses half an OpenID configuration and a non-SMTP mail URL", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), OIDC_ISSUER: "https://accounts.google.com" })).toThrowError(/OIDC_CLIENT_ID/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "http://mail.example.com" })).toThrowError(/SMTP_URL/);
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtps://user:pw@mail.example.com:465" }).adapters.mail).toBe("smtp");
  });

  it("leaves the product's keyset to the offline models unless the operator configures it, per scope", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).productKeyset).toEqual({ text: null, image: null, embedding: null, offlineFallback: false, timeoutMs: 60_000 });
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PRODUCT_KEYSET_TEXT_BASE_URL: "http://models.lan:11434/v1/",
      PRODUCT_KEYSET_TEXT_MODEL: "llama3.2",
      PRODUCT_KEYSET_EMBEDDING_PROVIDER: "OpenAI",
      PRODUCT_KEYSET_EMBEDDING_MODEL: "text-embedding-3-small",
      PRODUCT_KEYSET_EMBEDDING_API_KEY: "sk-op",
      PRODUCT_KEYSET_OFFLINE_FALLBACK: "true",
    }).productKeyset;
    // A base URL alone means an OpenAI-compatible server, whose key is optional.
    expect(config.text).toEqual({ provider: "OpenAI-compatible", subProvider: "Other", endpoint: "http://models.lan:11434/v1", model: "llama3.2", apiKey: "" });
    expect(config.image).toBeNull();
    expect(config.embedding).toEqual({ provider: "OpenAI", subProvider: "OpenAI", endpoint: null, model: "text-embedding-3-small", apiKey: "sk-op" });
    expect(config.offlineFallback).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), PRODUCT_KEYSET_IMAGE_PROVIDER: "Azure/OpenAI", PRODUCT_KEYSET_IMAGE_BASE_URL: "https://r.openai.azure.com/openai", PRODUCT_KEYSET_IMAGE_MODEL: "gpt-4o", PRODUCT_KEYSET_IMAGE_API_KEY: "k" }).productKeyset.image).toMatchObject({ provider: "Azure", subProvider: "OpenAI" });
  });

  it("refuses half a product keyset, naming the variable", () => {
    const load = (env: Record<string, string>) => () => loadConfig({ DATA_DIR: dataDir(), ...env });
    expect(load({ PRODUCT_KEYSET_TEXT_MODEL: "gpt-4o-mini" })).toThrowError(/PRODUCT_KEYSET_TEXT_PROVIDER/);
    expect(load({ PRODUCT_KEYSET_TEXT_PROVIDER: "OpenAI", PRODUCT_KEYSET_TEXT_API_KEY: "sk" })).toThrowError(/PRODUCT_KEYSET_TEXT_MODEL/);
    expect(load({ PRODUCT_KEYSET_TEXT_PROVIDER: "OpenAI", PRODUCT_KEYSET_TEXT_MODEL: "gpt-4o-mini" })).toThrowError(/PRODUCT_KEYSET_TEXT_API_KEY/);
    expect(load({ PRODUCT_KEYSET_TEXT_PROVIDER: "Acme", PRODUCT_KEYSET_TEXT_MODEL: "m" })).toThrowError(/PRODUCT_KEYSET_TEXT_PROVIDER/);
    expect(load({ PRODUCT_KEYSET_TEXT_PROVIDER: "OpenAI", PRODUCT_KEYSET_TEXT_BASE_URL: "https://proxy.example.com/v1", PRODUCT_KEYSET_TEXT_MODEL: "m", PRODUCT_KEYSET_TEXT_API_KEY: "sk" })).toThrowError(/OpenAI-compatible/);
    expect(load({ PRODUCT_KEYSET_TEXT_BASE_URL: "ftp://x", PRODUCT_KEYSET_TEXT_MODEL: "m" })).toThrowError(/PRODUCT_KEYSET_TEXT_BASE_URL/);
  });
});
