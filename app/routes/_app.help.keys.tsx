import { Card, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";

export const meta: MetaFunction = () => [{ title: "How to get an API key | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Help", page: "API keys" } };

/** The how-to articles the chat settings link to (spec 001 §2): where each provider's key comes from and what to enter. */
const ARTICLES: { id: string; provider: string; steps: string[]; fields: string }[] = [
  {
    id: "openai",
    provider: "OpenAI",
    steps: ["Sign in at platform.openai.com.", "Open API keys and choose Create new secret key.", "Copy the key (it starts with sk-); it is shown only once."],
    fields: "Provider OpenAI, sub-provider OpenAI, paste the key. Models are listed from your account.",
  },
  {
    id: "anthropic",
    provider: "Anthropic",
    steps: ["Sign in at console.anthropic.com.", "Open Settings, API keys, and choose Create Key.", "Copy the key (it starts with sk-ant-)."],
    fields: "Provider Anthropic, sub-provider Anthropic.",
  },
  {
    id: "google",
    provider: "Google (Gemini)",
    steps: ["Open Google AI Studio (aistudio.google.com).", "Choose Get API key, then Create API key.", "Copy the key."],
    fields: "Provider Google, sub-provider Gemini.",
  },
  {
    id: "mistral",
    provider: "Mistral",
    steps: ["Sign in at console.mistral.ai.", "Open API Keys and create a key.", "Copy it."],
    fields: "Provider Mistral, sub-provider Mistral.",
  },
  {
    id: "cohere",
    provider: "Cohere",
    steps: ["Sign in at dashboard.cohere.com.", "Open API keys; use a trial or production key.", "Copy it."],
    fields: "Provider Cohere, sub-provider Cohere (Command models for chat).",
  },
  {
    id: "deepseek",
    provider: "Deepseek",
    steps: ["Sign in at platform.deepseek.com.", "Open API keys and create one.", "Copy it."],
    fields: "Provider Deepseek, sub-provider Deepseek.",
  },
  {
    id: "azure",
    provider: "Azure",
    steps: [
      "In the Azure portal (or Azure AI Foundry) open your resource and deploy a model.",
      "Under Keys and Endpoint copy a key and the endpoint.",
      "Note the deployment name you chose.",
    ],
    fields:
      "Provider Azure and the model family as sub-provider. Endpoint: for OpenAI, https://<resource>.openai.azure.com/openai; for Anthropic or Claude, https://<resource>.services.ai.azure.com/anthropic/v1; for Cohere, Llama or Mistral, the model inference endpoint ending in /models. Model: the deployment name.",
  },
  {
    id: "aws",
    provider: "AWS (Bedrock)",
    steps: [
      "In the AWS console open Amazon Bedrock and enable access to the models you want (Anthropic, Cohere or Llama).",
      "Create a Bedrock API key (Bedrock, API keys), or an IAM access key allowed to call bedrock:InvokeModel.",
    ],
    fields: "Provider AWS and the model family as sub-provider. API key: the Bedrock API key, or ACCESS_KEY_ID:SECRET_ACCESS_KEY. Region us-east-1 unless you enter another region.",
  },
  {
    id: "openai-compatible",
    provider: "OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, llama.cpp)",
    steps: [
      "Run the server where this app can reach it, e.g. `ollama serve` (base URL http://<host>:11434/v1), `vllm serve <model>` (http://<host>:8000/v1), LM Studio's local server (http://<host>:1234/v1) or `llama-server` (http://<host>:8080/v1).",
      "A server on your own network (a private address) must be allowed by the operator: its host name goes into EGRESS_ALLOW_PRIVATE_HOSTS.",
    ],
    fields: "Provider OpenAI-compatible, the server as sub-provider, the base URL as endpoint. An API key only if the server asks for one; models are read from {base URL}/models.",
  },
];

export default function KeysHelp() {
  return (
    <Flex direction="column" gap="4" style={{ maxWidth: 860 }}>
      <Heading as="h1" size="7">
        How to get an API key
      </Heading>
      <Text as="p">
        DocuChat works without any key: its built-in model quotes your documents. To chat with a generative AI, add a key from a provider in{" "}
        <RadixLink asChild underline="always">
          <Link to="/profile/chat-settings">Chat Settings</Link>
        </RadixLink>
        . Keys are checked with the provider when saved, stored encrypted, and shown again only after you confirm your password.
      </Text>
      <nav aria-label="Providers">
        <Flex gap="3" wrap="wrap">
          {ARTICLES.map((a) => (
            <RadixLink key={a.id} href={`#${a.id}`} size="2">
              {a.provider}
            </RadixLink>
          ))}
        </Flex>
      </nav>
      {ARTICLES.map((a) => (
        <Card key={a.id} id={a.id} size="2">
          <Heading as="h2" size="4" mb="2">
            {a.provider}
          </Heading>
          <ol>
            {a.steps.map((step) => (
              <li key={step}>
                <Text size="2">{step}</Text>
              </li>
            ))}
          </ol>
          <Text as="p" size="2" color="gray">
            In DocuChat: {a.fields}
          </Text>
        </Card>
      ))}
    </Flex>
  );
}
