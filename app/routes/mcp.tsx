import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleMcpRequest, MCP_BODY_LIMIT } from "#app/public-api/mcp.server";

export const bodyLimit = MCP_BODY_LIMIT;

/** The MCP server (Streamable HTTP, decision 223), authorised by a personal access token. */
export const loader = ({ request }: LoaderFunctionArgs) => handleMcpRequest(request);
export const action = ({ request }: ActionFunctionArgs) => handleMcpRequest(request);
