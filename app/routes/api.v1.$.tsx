import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "#app/public-api/router.server";

/** The public API, /api/v1/* (decisions 220-222): bearer tokens, no cookies, no CSRF; the router holds the operations. */
export const loader = ({ request }: LoaderFunctionArgs) => handleApiRequest(request);
export const action = ({ request }: ActionFunctionArgs) => handleApiRequest(request);
