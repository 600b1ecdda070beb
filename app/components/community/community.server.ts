import { CommunityQueries, type CommunityDetail, type CommunityListItem } from "#application/community/community-queries";
import { CommunityService } from "#application/community/community-service";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getRuntime } from "#app/utils/services.server";
import { isDomainError } from "#domain/shared/domain-error";

/** The community context's services, from the one runtime (kept here so services.server.ts stays as it is). */
export async function communityServices() {
  const runtime = await getRuntime();
  return { communities: runtime.container.get(CommunityService), communityQueries: runtime.container.get(CommunityQueries) };
}

/**
 * HTTP status per community refusal. A community the user may not see, and a
 * resource they may not open, answer 404 exactly like a missing one (never 403,
 * which would confirm a private community exists).
 */
const STATUS: Record<string, number> = {
  CONCURRENT_CHANGE: 409,
  COMMUNITY_NOT_FOUND: 404,
  RESOURCE_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  COMMUNITY_NAME_TAKEN: 409,
  ALREADY_MEMBER: 409,
  COMMUNITY_ARCHIVED: 409,
  DOCUMENT_NOT_READY: 409,
  COMMUNITY_FORBIDDEN: 403,
  COMMUNITY_OWNER_ROLE: 422,
  COMMUNITY_OWNER_LEAVING: 422,
};

export async function communityErrorResponse(error: unknown): Promise<Response> {
  if (isDomainError(error) && STATUS[error.code]) {
    return Response.json({ code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) }, { status: STATUS[error.code] });
  }
  return apiErrorResponse(error);
}

/** Page loaders: an invisible or missing community is the 404 page. */
export function throwCommunityPageError(error: unknown): never {
  if (isDomainError(error) && (STATUS[error.code] === 404 || error.code === "DOCUMENT_NOT_FOUND")) throw new Response("Community not found", { status: 404 });
  throw error;
}

/** Spec 001 §3 Community, as the JSON API answers it. */
export function toApiCommunity(c: CommunityListItem | CommunityDetail) {
  return {
    community_id: c.communityId,
    community_name: c.communityName,
    creator_name: c.creatorName,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    status: c.status,
    visibility: c.visibility,
    role: c.role,
    join_requested: c.requested,
    ...("resources" in c
      ? {
          description: c.description,
          resources: c.resources.map((r) => ({ resource_id: r.resourceId, resource_name: r.resourceName, type: r.type, attached_at: r.attachedAt })),
        }
      : {}),
  };
}
