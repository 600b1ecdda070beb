import { getServices } from "#app/utils/services.server";
import type { AuditHistory } from "#application/administration/audit-rows";

/** The audit a page or an export asks for: an account (username or id) or one impersonation. */
export async function auditFor(params: URLSearchParams): Promise<{ query: string; kind: "account" | "impersonation"; history: AuditHistory | null }> {
  const { accountAudit, impersonationAudit } = await getServices();
  const impersonation = (params.get("impersonation") ?? "").trim().slice(0, 64);
  if (impersonation) return { query: impersonation, kind: "impersonation", history: await impersonationAudit.history(impersonation) };
  const query = (params.get("username") ?? "").trim().slice(0, 64);
  if (!query) return { query, kind: "account", history: null };
  const userId = await accountAudit.findAccount(query);
  return { query, kind: "account", history: userId ? await accountAudit.history(userId, query) : null };
}
