import { askOnce, askStreaming, MODEL_FAILURES, documentNames, sse } from "./answers.server";
import { type ApiOperation, json, operation } from "./operation.server";
import { fail, problemFrom } from "./problem.server";
import * as S from "./schemas";
import { reachableWorkspaces, workspaceInScope } from "./scope.server";

/**
 * OpenAI-compatible chat (decision 222): the "model" is a workspace the token
 * may ask (`workspace-<id>`), so a client built for OpenAI asks DocuChat with
 * no change but its base URL and key. Each completion is a new conversation
 * in that workspace (visible there, counted against the plan like any
 * question); the last user message is the question. Citations ride in the
 * extra field `citations`.
 */
const MODEL_PREFIX = "workspace-";
const modelId = (workspaceId: string) => `${MODEL_PREFIX}${workspaceId}`;
const workspaceIdOf = (model: string) => (model.startsWith(MODEL_PREFIX) ? model.slice(MODEL_PREFIX.length) : model);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

type ContentPart = { type: string; text?: string };
function textOf(content: string | ContentPart[] | null): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

export const chatCompletionOperations: ApiOperation[] = [
  operation({
    method: "get",
    path: "/models",
    operationId: "listModels",
    summary: "OpenAI-compatible: the workspaces this token may ask, as models",
    tag: "OpenAI-compatible",
    permission: "ask",
    responses: { 200: { description: "Models (one per workspace)", schema: S.ModelList } },
    async handle(call) {
      const workspaces = await reachableWorkspaces(call);
      return json({
        object: "list",
        data: workspaces.map((w) => ({ id: modelId(w.id), object: "model", created: seconds(w.createdAt), owned_by: "docuchat", name: w.name })),
      });
    },
  }),
  operation({
    method: "post",
    path: "/chat/completions",
    operationId: "createChatCompletion",
    summary: "OpenAI-compatible chat completion over a workspace (non-streaming, or `stream: true` for chat.completion.chunk events)",
    tag: "OpenAI-compatible",
    permission: "ask",
    body: { contentType: "application/json", schema: S.ChatCompletionRequest, limitBytes: 256 * 1024 },
    responses: {
      200: { description: "The completion, with `citations`; streamed as `data:` chunks ending with `data: [DONE]` when `stream` is true", schema: S.ChatCompletion },
      404: { description: "No such workspace within the token's scope", schema: S.Problem },
      422: { description: "The plan's message limit, or a workspace without documents", schema: S.Problem },
      ...MODEL_FAILURES,
    },
    async handle(call) {
      const question = textOf([...call.body.messages].reverse().find((m) => m.role === "user")?.content ?? null).trim();
      if (!question) fail(400, "The messages hold no user message with text.", "VALIDATION");
      const workspace = await workspaceInScope(call, workspaceIdOf(call.body.model));
      const { conversationId } = await call.services.conversations.create(call.grant.ownerId, workspace.id, call.ctx);
      const asking = { grant: call.grant, ctx: call.ctx, services: call.services, origin: new URL(call.request.url).origin, signal: call.request.signal };
      const names = documentNames(workspace.documents);
      const id = `chatcmpl-${conversationId}`;
      const created = Math.floor(Date.now() / 1000);
      const model = modelId(workspace.id);
      if (!call.body.stream) {
        const { answer, usage } = await askOnce(asking, conversationId, names, { question });
        const [prompt, completion] = [usage?.inputTokens ?? 0, usage?.outputTokens ?? 0];
        return json({
          id,
          object: "chat.completion",
          created,
          model,
          choices: [{ index: 0, message: { role: "assistant", content: answer.text }, finish_reason: "stop" }],
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
          citations: answer.citations,
        });
      }
      let first = true;
      return sse(
        (async function* () {
          yield* askStreaming(asking, conversationId, names, { question });
          yield { type: "end" as const };
        })(),
        (event) => {
          const chunk = (delta: Record<string, unknown>, finish: "stop" | null, extra: Record<string, unknown> = {}) => ({
            data: { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra },
          });
          if (event.type === "text") {
            const delta = first ? { role: "assistant", content: event.text } : { content: event.text };
            first = false;
            return chunk(delta, null);
          }
          if (event.type === "done") return chunk({}, "stop", { citations: event.answer.citations });
          return { data: "[DONE]" };
        },
        async (error) => ({ data: { error: await (await problemFrom(error, (e) => call.services.logger.error({ err: e }, "chat completion failed"))).json() } }),
      );
    },
  }),
];
