import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { TOKEN_PERMISSIONS } from "#domain/identity/access-token";

// Lets every schema below carry its OpenAPI name and examples: the document is generated from these (decision 221).
// Request bodies use optional() rather than default(): a default makes the generated schema call the field required.
extendZodWithOpenApi(z);

/**
 * The shapes of /api/v1: what the router validates requests with and what the
 * handlers answer, and, through zod-to-openapi, the OpenAPI 3.1 document. One
 * source, so the description cannot drift from the validation.
 */

export const Problem = z
  .object({
    type: z.string().openapi({ example: "https://docuchat.dev/problems/not-found" }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.string().optional().openapi({ description: "The domain's error code (WORKSPACE_NOT_EXIST, MESSAGE_LIMIT, …)" }),
    field: z.string().optional(),
  })
  .openapi("Problem", { description: "RFC 9457 problem details, for every error." });

export const Id = z.string().min(1).max(64);
export const IdParams = z.object({ id: Id });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: "Items per page (1-100)." }),
  cursor: z.string().max(200).optional().openapi({ description: "The `next_cursor` of the previous page." }),
});

const page = <T extends z.ZodTypeAny>(item: T, name: string) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last page." }) }).openapi(name);

export const DocumentStatus = z.enum(["UPLOADING", "QUEUED", "PROCESSING", "ACTIVE", "FAILED"]);

export const Document = z
  .object({
    id: z.string(),
    name: z.string(),
    source: z.string().openapi({ description: "file, audio, document_url, website_url or youtube_link" }),
    file_type: z.string(),
    size: z.number().int(),
    page_count: z.number().int(),
    status: z.string().openapi({ description: "UPLOADING, QUEUED, PROCESSING, ACTIVE or FAILED" }),
    failure_reason: z.string().nullable(),
    owned: z.boolean().openapi({ description: "false for a document a community shares with you" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Document");
export const DocumentPage = page(Document, "DocumentPage");

export const DocumentStatusBody = z
  .object({ id: z.string(), status: z.string(), failure_reason: z.string().nullable(), page_count: z.number().int(), warnings: z.array(z.string()) })
  .openapi("DocumentStatus");

export const UploadForm = z
  .object({
    file: z.any().openapi({ type: "string", format: "binary", description: "The file (PDF, DOCX, PPTX, TXT, images, audio), with its name." }),
    ocr: z.enum(["true", "false"]).optional().openapi({ description: "Read scanned pages with OCR (default false)." }),
  })
  .openapi("UploadForm");

export const UploadFromUrl = z
  .object({
    url: z.string().min(1).max(2048),
    kind: z.enum(["document", "website", "video"]).optional().openapi({ description: "A document link (the default), a website crawled to `max_depth`, or a video link." }),
    max_depth: z.number().int().min(0).max(3).optional(),
    ocr: z.boolean().optional(),
  })
  .openapi("UploadFromUrl");

export const PageText = z.object({ document_id: z.string(), page_number: z.number().int(), text: z.string() }).openapi("PageText");
export const PageParams = z.object({ id: Id, page: z.coerce.number().int().min(1).max(100_000) });

export const Workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    type: z.string(),
    status: z.string().openapi({ description: "PENDING, ACTIVE or FAILED" }),
    document_ids: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Workspace");
export const WorkspacePage = page(Workspace, "WorkspacePage");

export const WorkspaceDetail = Workspace.extend({
  failure_reason: z.string().nullable(),
  documents: z.array(z.object({ id: z.string(), name: z.string(), status: z.string(), page_count: z.number().int() })),
  conversations: z.array(z.object({ id: z.string(), title: z.string(), message_count: z.number().int(), created_at: z.string() })),
}).openapi("WorkspaceDetail");

export const CreateWorkspace = z
  .object({
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(500).optional(),
    document_ids: z.array(Id).min(1).max(10),
  })
  .openapi("CreateWorkspace");

export const Conversation = z
  .object({ id: z.string(), workspace_id: z.string(), title: z.string(), message_count: z.number().int(), created_at: z.string() })
  .openapi("Conversation");

export const CreateConversation = z.object({ workspace_id: Id }).openapi("CreateConversation");

export const Citation = z
  .object({
    document_id: z.string(),
    document_name: z.string(),
    page_number: z.number().int(),
    quote: z.string().nullable().openapi({ description: "The span of the page the answer rests on, when the model knows it." }),
    url: z.string().openapi({ description: "Opens the document's viewer at the page." }),
  })
  .openapi("Citation");

export const Message = z
  .object({
    id: z.string(),
    role: z.enum(["user", "assistant"]),
    text: z.string(),
    status: z.string(),
    citations: z.array(Citation),
    created_at: z.string(),
  })
  .openapi("Message");
export const MessagePage = page(Message, "MessagePage");

export const Ask = z
  .object({
    question: z.string().trim().min(1).max(8000),
    stream: z.boolean().optional().openapi({ description: "Stream Server-Sent Events (`delta`, then `done` with the answer) instead of one JSON answer." }),
    language: z.string().max(40).optional(),
  })
  .openapi("Ask");

export const Answer = z
  .object({ message_id: z.string(), question_id: z.string(), conversation_id: z.string(), text: z.string(), citations: z.array(Citation), model: z.string() })
  .openapi("Answer");

export const SearchQuery = z.object({
  q: z.string().trim().min(1).max(1000).openapi({ description: "What to look for." }),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const Passage = z
  .object({
    document_id: z.string(),
    document_name: z.string(),
    page_number: z.number().int(),
    span: z.string().openapi({ description: "The passage's text as indexed." }),
    score: z.number(),
    url: z.string(),
  })
  .openapi("Passage");
export const SearchResult = z.object({ data: z.array(Passage) }).openapi("SearchResult");

export const TokenInfo = z
  .object({ token_id: z.string(), workspace_ids: z.array(z.string()).nullable(), permissions: z.array(z.enum(TOKEN_PERMISSIONS)) })
  .openapi("TokenInfo");

// OpenAI-compatible chat (decision 222): the fields we read; others a client sends are accepted and ignored.
export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1).max(200).openapi({ description: "`workspace-<id>`, as /models lists them, or the workspace id." }),
    messages: z
      .array(
        z
          .object({
            role: z.enum(["system", "developer", "user", "assistant", "tool"]),
            content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()), z.null()]),
          })
          .passthrough(),
      )
      .min(1)
      .max(200),
    stream: z.boolean().optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

export const ChatCompletion = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal("assistant"), content: z.string() }),
        finish_reason: z.literal("stop"),
      }),
    ),
    usage: z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() }),
    citations: z.array(Citation).openapi({ description: "DocuChat's extra field: the pages the answer cites. Streaming sends them on the last chunk." }),
  })
  .openapi("ChatCompletion");

export const ModelList = z
  .object({
    object: z.literal("list"),
    data: z.array(z.object({ id: z.string(), object: z.literal("model"), created: z.number().int(), owned_by: z.string(), name: z.string() })),
  })
  .openapi("ModelList");
