import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { TokenPermission } from "#domain/identity/access-token";
import { readJsonBody } from "#app/utils/api-errors.server";
import { askOnce, documentNames, viewerUrl } from "./answers.server";
import { pageText } from "./operations.server";
import { fail, problem, problemFrom } from "./problem.server";
import { type Authorised, authorise } from "./router.server";
import { reachableWorkspaces, workspaceInScope } from "./scope.server";

export const MCP_BODY_LIMIT = 256 * 1024;

/**
 * The MCP server at /mcp (decision 223): Streamable HTTP, stateless (a server
 * per request, so any web process answers any request), authorised by a
 * personal access token like /api/v1, with the same scope, permissions, rate
 * limit and services. Citations link to the viewer.
 */
export async function handleMcpRequest(request: Request): Promise<Response> {
  try {
    const authorised = await authorise(request);
    if (request.method !== "POST") return problem(405, "This MCP server is stateless: POST JSON-RPC messages.", { headers: { Allow: "POST" } });
    const body = await readJsonBody(request, MCP_BODY_LIMIT);
    // The MCP SDK is imported on the first request, not with the server bundle at every start (decision 254).
    const [{ McpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/mcp.js"),
      import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    ]);
    const server = mcpServer(new McpServer({ name: "docuchat", version: "1.0.0" }), authorised, new URL(request.url).origin, request.signal);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } catch (error) {
    return problemFrom(error, () => undefined);
  }
}

/** `server` with DocuChat's tools, for one request. */
function mcpServer(server: McpServer, auth: Authorised, origin: string, signal: AbortSignal): McpServer {
  const { grant, services } = auth;
  /** Runs a tool under the token's permission; refusals and domain errors come back as tool errors the model can read. */
  const tool = (permission: TokenPermission, run: () => Promise<CallToolResult>) => async (): Promise<CallToolResult> => {
    try {
      if (!grant.permissions.includes(permission)) fail(403, `This token does not have the "${permission}" permission.`, "TOKEN_PERMISSION");
      if (permission === "ask" && auth.readOnly) fail(403, "The account is scheduled for deletion. Retrieve it to ask.", "ACCOUNT_PENDING_DELETE");
      return await run();
    } catch (error) {
      const answer = (await (await problemFrom(error, (e) => services.logger.error({ err: e }, "mcp tool failed"))).json()) as { detail?: string; code?: string };
      return { isError: true, content: [{ type: "text", text: `${answer.code ?? "ERROR"}: ${answer.detail ?? "The tool failed."}` }] };
    }
  };

  server.registerTool(
    "list_workspaces",
    { title: "List workspaces", description: "The DocuChat workspaces this token reaches: their ids, names and documents.", inputSchema: {} },
    () =>
      tool("read", async () => {
        const workspaces = await reachableWorkspaces(auth);
        const rows = workspaces.map((w) => ({ id: w.id, name: w.name, status: w.status, document_ids: w.documentIds }));
        return { content: [{ type: "text", text: rows.map((w) => `${w.name} (id ${w.id}, ${w.status}, ${w.document_ids.length} documents)`).join("\n") || "No workspaces." }], structuredContent: { workspaces: rows } };
      })(),
  );

  server.registerTool(
    "search_workspace",
    {
      title: "Search a workspace",
      description: "Passages of a workspace's documents that match a query, best first, each with its document, page, text and a link to the page in the viewer.",
      inputSchema: { workspace_id: z.string().min(1).max(64), query: z.string().min(1).max(1000), limit: z.number().int().min(1).max(20).optional() },
    },
    (args) =>
      tool("read", async () => {
        await workspaceInScope(auth, args.workspace_id);
        const passages = await services.passageSearch.search(grant.ownerId, args.workspace_id, args.query, args.limit ?? 8);
        const rows = passages.map((p) => ({ document_id: p.documentId, document_name: p.documentName, page_number: p.pageNumber, span: p.text, score: p.score, url: viewerUrl(origin, p.documentId, p.pageNumber) }));
        const text = rows.map((r, i) => `[${i + 1}] ${r.document_name}, page ${r.page_number} (${r.url})\n${r.span}`).join("\n\n") || "Nothing matched.";
        return { content: [{ type: "text", text }], structuredContent: { passages: rows } };
      })(),
  );

  server.registerTool(
    "ask_workspace",
    {
      title: "Ask a workspace",
      description: "Asks DocuChat a question about a workspace's documents; the answer cites the pages it rests on, with links to the viewer. Counts against the owner's plan.",
      inputSchema: { workspace_id: z.string().min(1).max(64), question: z.string().min(1).max(8000) },
    },
    (args) =>
      tool("ask", async () => {
        const workspace = await workspaceInScope(auth, args.workspace_id);
        const { conversationId } = await services.conversations.create(grant.ownerId, workspace.id, auth.ctx);
        const { answer } = await askOnce({ grant, ctx: auth.ctx, services, origin, signal }, conversationId, documentNames(workspace.documents), { question: args.question });
        const sources = answer.citations.map((c, i) => `[${i + 1}] ${c.document_name}, page ${c.page_number}: ${c.url}`).join("\n");
        return { content: [{ type: "text", text: sources ? `${answer.text}\n\nSources:\n${sources}` : answer.text }], structuredContent: { answer: answer.text, citations: answer.citations, conversation_id: conversationId } };
      })(),
  );

  server.registerTool(
    "read_page",
    {
      title: "Read a page",
      description: "The text of one page of a document, as DocuChat extracted it.",
      inputSchema: { document_id: z.string().min(1).max(64), page: z.number().int().min(1) },
    },
    (args) =>
      tool("read", async () => {
        const page = await pageText(auth, args.document_id, args.page);
        const url = viewerUrl(origin, args.document_id, args.page);
        return { content: [{ type: "text", text: page.text }], structuredContent: { ...page, url } };
      })(),
  );
  return server;
}
