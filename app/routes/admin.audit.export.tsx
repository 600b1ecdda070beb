import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "#app/components/administration/admin.server";
import { auditFor } from "#app/components/administration/audit.server";
import { historyCsv } from "#application/administration/audit-rows";

/**
 * GET /admin/audit/export?username=…|impersonation=…&format=csv|json — the
 * audit page's replay as a download (admins only; others 404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const { history, kind } = await auditFor(params);
  if (!history) throw new Response("Not Found", { status: 404 });
  const format = params.get("format") === "json" ? "json" : "csv";
  const name = `${kind}-audit.${format}`;
  const headers = { "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "private, no-store" };
  if (format === "json") return new Response(JSON.stringify(history, null, 2), { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
  return new Response(historyCsv(history), { headers: { ...headers, "Content-Type": "text/csv; charset=utf-8" } });
}
