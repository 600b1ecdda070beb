import type { z } from "zod";
import type { DocumentReadModel } from "#projections/library/documents.queries";
import type { WorkspaceDetail } from "#application/workspace/workspace-queries";
import { DomainError } from "#domain/shared/domain-error";
import { MAX_AUDIO_BYTES } from "#domain/library/upload-rules";
import { askOnce, askStreaming, MODEL_FAILURES, citationsOut, documentNames, sse, viewerUrl } from "./answers.server";
import { chatCompletionOperations } from "./chat-completions.server";
import { type ApiCall, type ApiOperation, json, nextCursor, operation, readCursor } from "./operation.server";
import { fail, problemFrom } from "./problem.server";
import * as S from "./schemas";
import { conversationInScope, documentInScope, reachableWorkspaces, requireAllWorkspaces, workspaceInScope } from "./scope.server";

/** A multipart upload may carry the largest file the pages accept (a recording) plus its form fields. */
export const UPLOAD_BODY_LIMIT = MAX_AUDIO_BYTES + 64 * 1024;
const JSON_LIMIT = 64 * 1024;

const NOT_FOUND = { description: "Not found, or outside the token's scope", schema: S.Problem };
const FORBIDDEN = { description: "The token lacks the permission, or the account may not change anything now", schema: S.Problem };
const INVALID = { description: "Invalid input", schema: S.Problem };

function documentOut(d: DocumentReadModel, ownerId: string): z.infer<typeof S.Document> {
  return {
    id: d.id,
    name: d.name,
    source: d.source,
    file_type: d.kind ?? d.fileType,
    size: d.size,
    page_count: d.pageCount,
    status: d.status,
    failure_reason: d.failureReason,
    owned: d.ownerId === ownerId,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
  };
}

type WorkspaceRow = Pick<WorkspaceDetail, "id" | "name" | "description" | "type" | "status" | "documentIds" | "createdAt" | "updatedAt">;
const workspaceOut = (w: WorkspaceRow): z.infer<typeof S.Workspace> => ({
  id: w.id,
  name: w.name,
  description: w.description,
  type: w.type,
  status: w.status,
  document_ids: w.documentIds,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

const workspaceDetailOut = (w: WorkspaceDetail): z.infer<typeof S.WorkspaceDetail> => ({
  ...workspaceOut(w),
  failure_reason: w.failureReason,
  documents: w.documents.map((d) => ({ id: d.documentId, name: d.documentName, status: d.status, page_count: d.pageCount })),
  conversations: w.conversations.map((c) => ({ id: c.id, title: c.title, message_count: c.messageCount, created_at: c.createdAt })),
});

function offsetOf(cursor: string | undefined): number {
  const offset = readCursor(cursor);
  if (offset < 0) fail(400, "The cursor is not one this API gave.", "VALIDATION");
  return offset;
}

const origin = (request: Request) => new URL(request.url).origin;

async function documentAnswer(call: ApiCall<unknown, unknown, unknown>, documentId: string, status = 200): Promise<Response> {
  const document = await call.services.libraryQueries.readableDocument(call.grant.ownerId, documentId);
  return json(documentOut(document, call.grant.ownerId), status, status === 202 ? { Location: `/api/v1/documents/${documentId}` } : {});
}

export const apiOperations: ApiOperation[] = [
  operation({
    method: "get",
    path: "/documents",
    operationId: "listDocuments",
    summary: "List documents (newest first); a token for chosen workspaces sees their documents",
    tag: "Documents",
    permission: "read",
    query: S.PageQuery,
    responses: { 200: { description: "A page of documents", schema: S.DocumentPage } },
    async handle({ grant, services, query }) {
      const offset = offsetOf(query.cursor);
      if (grant.workspaceIds) {
        const seen = new Map<string, DocumentReadModel>();
        for (const workspace of await reachableWorkspaces({ grant, services })) {
          for (const documentId of workspace.documentIds) {
            if (seen.has(documentId)) continue;
            const document = await services.libraryQueries.readableDocument(grant.ownerId, documentId).catch(() => null);
            if (document) seen.set(documentId, document);
          }
        }
        const all = [...seen.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
        const pageItems = all.slice(offset, offset + query.limit);
        return json({ data: pageItems.map((d) => documentOut(d, grant.ownerId)), next_cursor: nextCursor(offset, pageItems.length, all.length) });
      }
      const { documents, total } = await services.libraryQueries.listDocuments(grant.ownerId, { limit: query.limit, offset });
      return json({ data: documents.map((d) => documentOut(d, grant.ownerId)), next_cursor: nextCursor(offset, documents.length, total) });
    },
  }),
  operation({
    method: "post",
    path: "/documents",
    operationId: "uploadDocument",
    summary: "Upload a file (multipart/form-data, field `file`): the same checks and plan limits as the Upload page; ingestion follows",
    tag: "Documents",
    permission: "upload",
    body: { contentType: "multipart/form-data", schema: S.UploadForm, limitBytes: UPLOAD_BODY_LIMIT },
    responses: { 202: { description: "Received; poll its status until ACTIVE", schema: S.Document }, 400: INVALID, 413: INVALID, 422: INVALID },
    async handle(call) {
      requireAllWorkspaces(call.grant);
      const form = call.body as unknown as FormData;
      const file = form.get("file");
      if (!(file instanceof File)) fail(400, "Send the file in the multipart field `file`.", "VALIDATION");
      const upload = file as File;
      const ocr = S.UploadForm.shape.ocr.default("false").safeParse(form.get("ocr") ?? undefined);
      if (!ocr.success) fail(400, "ocr must be true or false.", "VALIDATION");
      const { library } = call.services;
      const registered = await library.registerUpload(
        call.grant.ownerId,
        { document_name: upload.name, document_type: upload.type || "application/octet-stream", document_size: upload.size, page_count: 0, ocr: ocr.data },
        call.ctx,
      );
      const token = new URL(registered.url, "http://upload").searchParams.get("token") ?? "";
      await library.receiveUpload(registered.document_id, token, Buffer.from(await upload.arrayBuffer()), upload.type, call.ctx);
      return documentAnswer(call, registered.document_id, 202);
    },
  }),
  operation({
    method: "post",
    path: "/documents/from-url",
    operationId: "uploadDocumentFromUrl",
    summary: "Add a document link, a website (crawled to max_depth) or a video link; fetched by the server through its egress rules",
    tag: "Documents",
    permission: "upload",
    body: { contentType: "application/json", schema: S.UploadFromUrl, limitBytes: JSON_LIMIT },
    responses: { 202: { description: "Registered; poll its status until ACTIVE", schema: S.Document }, 400: INVALID, 422: INVALID },
    async handle(call) {
      requireAllWorkspaces(call.grant);
      const source = ({ document: "document_url", website: "website_url", video: "youtube_link" } as const)[call.body.kind ?? "document"];
      const { documentId } = await call.services.library.registerLink(call.grant.ownerId, { source, url: call.body.url, maxDepth: call.body.max_depth, ocr: call.body.ocr ?? false }, call.ctx);
      return documentAnswer(call, documentId, 202);
    },
  }),
  operation({
    method: "get",
    path: "/documents/{id}",
    operationId: "getDocument",
    summary: "A document, own or shared with you by a community",
    tag: "Documents",
    permission: "read",
    params: S.IdParams,
    responses: { 200: { description: "The document", schema: S.Document }, 404: NOT_FOUND },
    async handle(call) {
      return json(documentOut(await documentInScope(call, call.params.id), call.grant.ownerId));
    },
  }),
  operation({
    method: "get",
    path: "/documents/{id}/status",
    operationId: "getDocumentStatus",
    summary: "Where ingestion is: UPLOADING, PREPARING_CONTEXT, ACTIVE or FAILED (with the reason)",
    tag: "Documents",
    permission: "read",
    params: S.IdParams,
    responses: { 200: { description: "The status", schema: S.DocumentStatusBody }, 404: NOT_FOUND },
    async handle(call) {
      const d = await documentInScope(call, call.params.id);
      return json({ id: d.id, status: d.status, failure_reason: d.failureReason, page_count: d.pageCount, warnings: d.warnings });
    },
  }),
  operation({
    method: "get",
    path: "/documents/{id}/pages/{page}",
    operationId: "getPageText",
    summary: "The text of one page, as extraction read it",
    tag: "Documents",
    permission: "read",
    params: S.PageParams,
    responses: { 200: { description: "The page's text", schema: S.PageText }, 404: NOT_FOUND },
    async handle(call) {
      const page = await pageText(call, call.params.id, call.params.page);
      return json(page);
    },
  }),
  operation({
    method: "delete",
    path: "/documents/{id}",
    operationId: "deleteDocument",
    summary: "Delete your document (its file, pages and search entries)",
    tag: "Documents",
    permission: "upload",
    params: S.IdParams,
    responses: { 204: { description: "Deleted" }, 403: FORBIDDEN, 404: NOT_FOUND },
    async handle({ grant, services, params, ctx }) {
      requireAllWorkspaces(grant);
      await services.library.deleteDocuments(grant.ownerId, [params.id], ctx);
      return new Response(null, { status: 204 });
    },
  }),
  operation({
    method: "get",
    path: "/workspaces",
    operationId: "listWorkspaces",
    summary: "List workspaces the token reaches, most recently used first",
    tag: "Workspaces",
    permission: "read",
    query: S.PageQuery,
    responses: { 200: { description: "A page of workspaces", schema: S.WorkspacePage } },
    async handle({ grant, services, query }) {
      const offset = offsetOf(query.cursor);
      if (grant.workspaceIds) {
        const all = await reachableWorkspaces({ grant, services });
        const pageItems = all.slice(offset, offset + query.limit);
        return json({ data: pageItems.map(workspaceOut), next_cursor: nextCursor(offset, pageItems.length, all.length) });
      }
      const { workspaces, total } = await services.workspaceQueries.list(grant.ownerId, { limit: query.limit, offset });
      return json({ data: workspaces.map(workspaceOut), next_cursor: nextCursor(offset, workspaces.length, total) });
    },
  }),
  operation({
    method: "post",
    path: "/workspaces",
    operationId: "createWorkspace",
    summary: "Create a workspace from documents you may read; it launches in the background (status PENDING, then ACTIVE)",
    tag: "Workspaces",
    permission: "upload",
    body: { contentType: "application/json", schema: S.CreateWorkspace, limitBytes: JSON_LIMIT },
    responses: { 201: { description: "Created", schema: S.WorkspaceDetail }, 403: FORBIDDEN, 404: NOT_FOUND, 422: INVALID },
    async handle({ grant, services, body, ctx }) {
      requireAllWorkspaces(grant);
      const { workspaceId } = await services.workspaces.create(grant.ownerId, { name: body.name, description: body.description ?? "", type: "Conversation", documentIds: body.document_ids }, ctx);
      return json(workspaceDetailOut(await services.workspaceQueries.get(grant.ownerId, workspaceId)), 201, { Location: `/api/v1/workspaces/${workspaceId}` });
    },
  }),
  operation({
    method: "get",
    path: "/workspaces/{id}",
    operationId: "getWorkspace",
    summary: "A workspace with its documents and conversations",
    tag: "Workspaces",
    permission: "read",
    params: S.IdParams,
    responses: { 200: { description: "The workspace", schema: S.WorkspaceDetail }, 404: NOT_FOUND },
    async handle(call) {
      return json(workspaceDetailOut(await workspaceInScope(call, call.params.id)));
    },
  }),
  operation({
    method: "get",
    path: "/workspaces/{id}/search",
    operationId: "searchWorkspace",
    summary: "Passages for a query within a workspace (keyword ranking), each with its document, page, span and score",
    tag: "Workspaces",
    permission: "read",
    params: S.IdParams,
    query: S.SearchQuery,
    responses: { 200: { description: "Passages, best first", schema: S.SearchResult }, 404: NOT_FOUND },
    async handle(call) {
      await workspaceInScope(call, call.params.id);
      const passages = await call.services.passageSearch.search(call.grant.ownerId, call.params.id, call.query.q, call.query.limit);
      return json({
        data: passages.map((p) => ({
          document_id: p.documentId,
          document_name: p.documentName,
          page_number: p.pageNumber,
          span: p.text,
          score: p.score,
          url: viewerUrl(origin(call.request), p.documentId, p.pageNumber),
        })),
      });
    },
  }),
  operation({
    method: "post",
    path: "/conversations",
    operationId: "createConversation",
    summary: "Start a conversation in a workspace",
    tag: "Conversations",
    permission: "ask",
    body: { contentType: "application/json", schema: S.CreateConversation, limitBytes: JSON_LIMIT },
    responses: { 201: { description: "Created", schema: S.Conversation }, 404: NOT_FOUND },
    async handle(call) {
      await workspaceInScope(call, call.body.workspace_id);
      const { conversationId } = await call.services.conversations.create(call.grant.ownerId, call.body.workspace_id, call.ctx);
      const c = await call.services.conversations.owned(call.grant.ownerId, conversationId);
      return json({ id: c.id, workspace_id: c.workspaceId, title: c.title, message_count: c.messageCount, created_at: c.createdAt }, 201);
    },
  }),
  operation({
    method: "post",
    path: "/conversations/{id}/messages",
    operationId: "ask",
    summary: "Ask a question: the answer with citations as JSON, or streamed as Server-Sent Events (`stream: true`). Counts against the plan like a question on the page",
    tag: "Conversations",
    permission: "ask",
    params: S.IdParams,
    body: { contentType: "application/json", schema: S.Ask, limitBytes: JSON_LIMIT },
    responses: {
      200: { description: "The answer (JSON), or with stream: true an event stream of `delta` {text} events and one `done` event carrying the Answer", schema: S.Answer },
      404: NOT_FOUND,
      422: { description: "The plan's message limit, or a workspace without documents", schema: S.Problem },
      ...MODEL_FAILURES,
    },
    async handle(call) {
      const conversation = await conversationInScope(call, call.params.id);
      const workspace = await call.services.workspaceQueries.get(call.grant.ownerId, conversation.workspaceId);
      const asking = { grant: call.grant, ctx: call.ctx, services: call.services, origin: origin(call.request), signal: call.request.signal };
      const names = documentNames(workspace.documents);
      const input = { question: call.body.question, language: call.body.language };
      if (!call.body.stream) return json((await askOnce(asking, conversation.id, names, input)).answer);
      return sse(
        askStreaming(asking, conversation.id, names, input),
        (event) => (event.type === "text" ? { event: "delta", data: { text: event.text } } : { event: "done", data: event.answer }),
        async (error) => ({ event: "error", data: await (await problemFrom(error, (e) => call.services.logger.error({ err: e }, "api answer failed"))).json() }),
      );
    },
  }),
  operation({
    method: "get",
    path: "/conversations/{id}/messages",
    operationId: "listMessages",
    summary: "A conversation's history, oldest first",
    tag: "Conversations",
    permission: "read",
    params: S.IdParams,
    query: S.PageQuery,
    responses: { 200: { description: "A page of messages", schema: S.MessagePage }, 404: NOT_FOUND },
    async handle(call) {
      const conversation = await conversationInScope(call, call.params.id);
      const workspace = await call.services.workspaceQueries.get(call.grant.ownerId, conversation.workspaceId);
      const names = documentNames(workspace.documents);
      const offset = offsetOf(call.query.cursor);
      const all = await call.services.conversations.messages(call.grant.ownerId, conversation.id);
      const pageItems = all.slice(offset, offset + call.query.limit);
      return json({
        data: pageItems.map((m) => ({
          id: m.id,
          role: m.sender === "USER" ? ("user" as const) : ("assistant" as const),
          text: m.text,
          status: m.status,
          citations: citationsOut(m.citations, names, origin(call.request)),
          created_at: m.createdAt,
        })),
        next_cursor: nextCursor(offset, pageItems.length, all.length),
      });
    },
  }),
  operation({
    method: "get",
    path: "/token",
    operationId: "getToken",
    summary: "What the token in use may reach and do",
    tag: "Tokens",
    permission: null,
    responses: { 200: { description: "The token's scope and permissions", schema: S.TokenInfo } },
    async handle({ grant }) {
      return json({ token_id: grant.tokenId, workspace_ids: grant.workspaceIds, permissions: grant.permissions });
    },
  }),
  ...chatCompletionOperations,
];

/** A page's text, for the API and the MCP tool: the document must be in scope and readable. */
export async function pageText(call: Pick<ApiCall<unknown, unknown, unknown>, "grant" | "services">, documentId: string, pageNumber: number) {
  await documentInScope(call, documentId);
  const page = (await call.services.libraryQueries.pages(call.grant.ownerId, documentId)).find((p) => p.pageNumber === pageNumber);
  if (!page) throw new DomainError("PAGE_NOT_FOUND", "This page does not exist.");
  return { document_id: documentId, page_number: pageNumber, text: page.text };
}
