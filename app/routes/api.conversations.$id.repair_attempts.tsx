import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

const RepairAttempt = z.object({ attempt: z.number().int().min(1).max(100), error: z.string().max(2000), fixed: z.boolean(), model: z.string().max(200) });

/**
 * POST /api/conversations/{id}/repair_attempts {attempt, error, fixed, model}:
 * the chat records each Retry of a LaTeX answer and whether its answer compiled
 * (on the resume of the conversation's workspace).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = RepairAttempt.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "attempt, error, fixed and model are required" }, { status: 400 });
    const { resumes } = await getServices();
    const { attempt, error, fixed, model } = parsed.data;
    return Response.json(await resumes.recordRepair(user.id, params.id ?? "", { attempt, error, fixed, author: model }, getRequestContext(request, { actorId: user.id })));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
