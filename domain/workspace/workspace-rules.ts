import { z } from "zod";
import { MAX_DOCUMENTS_PER_WORKSPACE, WORKSPACE_TYPES } from "./workspace";

/** Wizard and settings forms (spec 000 §5 Workspace details, 001 §5 rename), shared by browser and server. */

const required = "This field is required";

export const workspaceDetailsSchema = z.object({
  name: z.string({ required_error: required }).trim().min(1, required).max(100, "Workspace name is too long"),
  description: z.string().trim().max(500, "Description is too long").optional().default(""),
  type: z.enum(WORKSPACE_TYPES, { required_error: required, invalid_type_error: required, message: required }),
});

const modelChoice = z.object({ keysetId: z.string().min(1).max(100), model: z.string().min(1).max(200) });

export const chatPreferenceSchema = z.object({
  text: modelChoice,
  image: modelChoice,
  embedding: modelChoice.nullable(),
});

export const createWorkspaceSchema = workspaceDetailsSchema.extend({
  documentIds: z
    .array(z.string().min(1).max(64))
    .min(1, "Choose at least one file for the workspace.")
    .max(MAX_DOCUMENTS_PER_WORKSPACE, "Can not upload more than 10 files"),
  chatPreference: chatPreferenceSchema.optional(),
});

export const renameWorkspaceSchema = z.object({
  name: z.string().trim().min(1, "Workspace name is required").max(100, "Workspace name is too long"),
  description: z.string().trim().max(500).optional().default(""),
});

export const attachDocumentsSchema = z.object({
  documentIds: z.array(z.string().min(1).max(64)).min(1, "Choose at least one file.").max(MAX_DOCUMENTS_PER_WORKSPACE, "Can not upload more than 10 files"),
});

export const workspaceSessionSchema = z.object({
  activeFileIds: z.array(z.string().min(1).max(64)).max(50),
  openFileId: z.string().max(64).nullable(),
  activeConversationId: z.string().max(64).nullable(),
});
