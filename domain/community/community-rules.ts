import { z } from "zod";
import { COMMUNITY_DESCRIPTION_MAX, COMMUNITY_NAME_MAX, COMMUNITY_ROLES, VISIBILITIES } from "./community";

/** Forms and JSON bodies of the community screens and API (spec 001 §5, §7), shared by browser and server. */

export const createCommunitySchema = z.object({
  communityName: z
    .string({ required_error: "Community Name is required" })
    .trim()
    .min(1, "Community Name is required")
    .max(COMMUNITY_NAME_MAX, `Community Name is at most ${COMMUNITY_NAME_MAX} characters`),
  communityDescription: z
    .string({ required_error: "Community Description is required" })
    .trim()
    .min(1, "Community Description is required")
    .max(COMMUNITY_DESCRIPTION_MAX, `Community Description is at most ${COMMUNITY_DESCRIPTION_MAX} characters`),
  visibility: z.enum(VISIBILITIES).default("PUBLIC"),
});

export const communitySettingsSchema = z.object({
  description: z.string().trim().min(1, "Community Description is required").max(COMMUNITY_DESCRIPTION_MAX),
  visibility: z.enum(VISIBILITIES),
});

const id = z.string().min(1).max(64);

/** POST /communities/{id}/attach_resources: `resources` of {id, name, type} (spec 001 §3). */
export const attachResourcesSchema = z.object({
  resources: z
    .array(z.object({ id, name: z.string().max(500).optional(), type: z.literal("DOCUMENT").default("DOCUMENT") }))
    .min(1, "Choose at least one file.")
    .max(20, "Add at most 20 files at once."),
});

export const memberRoleSchema = z.object({ userId: id, role: z.enum(COMMUNITY_ROLES) });
export const reportSchema = z.object({ documentId: id, reason: z.string().trim().min(1, "Say why you report this document.").max(500) });

/** Resource ids on the wire are prefixed DOCUMENT_ (spec 001 §3). */
export const RESOURCE_PREFIX = "DOCUMENT_";
export const resourceIdOf = (documentId: string) => `${RESOURCE_PREFIX}${documentId}`;
export const documentIdOf = (resourceId: string) => (resourceId.startsWith(RESOURCE_PREFIX) ? resourceId.slice(RESOURCE_PREFIX.length) : resourceId);
