import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { UPLOAD_BODY_LIMIT } from "#app/public-api/operations.server";
import { handleApiRequest } from "#app/public-api/router.server";

/** The server reads a body up to the largest operation's limit (a file upload); each operation then enforces its own (decision 200). */
export const bodyLimit = UPLOAD_BODY_LIMIT;

/** The public API, /api/v1/* (decisions 220-222): bearer tokens, no cookies, no CSRF; the router holds the operations. */
export const loader = ({ request }: LoaderFunctionArgs) => handleApiRequest(request);
export const action = ({ request }: ActionFunctionArgs) => handleApiRequest(request);
