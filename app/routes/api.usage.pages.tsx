import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";
import { parseInput } from "#application/shared/parse";

const batchSchema = z.object({ pages: z.number().int().min(0).max(1_000_000) });

/**
 * POST /api/usage/pages { pages } — whether an upload batch's pages fit what is
 * left of the plan: 200 { remaining }, or 422 with the spec's message
 * ('Upload exceeds the total available page limit. You have N pages remaining.').
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  try {
    await validateCsrfHeader(request);
    const { pages } = parseInput(batchSchema, await readJsonBody(request));
    const { billing } = await getServices();
    return Response.json({ remaining: await billing.checkPages(user.id, pages) });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
