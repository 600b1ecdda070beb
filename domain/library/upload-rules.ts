import { z } from "zod";
import { RAG_TYPES } from "./document";

/** Upload rules (spec 000 §5 File upload), shared by the browser and the server. */

export const MAX_FILES_PER_UPLOAD = 10;
/** Per file. Large enough for long books and slide decks; bounded so one upload cannot fill the disk. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 100 * 1024 * 1024;

/** The byte limit of an upload by its source: recorded audio may be larger than a document file. */
export const uploadByteLimit = (source: string) => (source === "audio" ? MAX_AUDIO_BYTES : MAX_FILE_BYTES);

/** The 413 text: names the limit that applies to this upload's type. */
export const uploadTooLargeMessage = (source: string) =>
  `The file is larger than ${uploadByteLimit(source) / 1024 / 1024} MB, the limit for ${source === "audio" ? "recorded audio" : "a document file"}.`;

export const DOCUMENT_EXTENSIONS = ["pdf", "txt", "docx", "doc", "pptx", "ppt", "xlsx", "xls", "jpg", "jpeg", "png"] as const;
/** Text-like code and data files, sent as text/plain. */
export const TEXT_LIKE_EXTENSIONS = [
  "md", "csv", "json", "xml", "yaml", "yml", "html", "htm", "css", "js", "jsx", "ts", "tsx", "py", "java", "go", "rs",
  "c", "h", "cpp", "hpp", "cs", "rb", "php", "swift", "kt", "scala", "sh", "sql", "r", "m", "tex", "log", "ini", "toml",
] as const;
export const AUDIO_EXTENSIONS = ["mp3", "wav", "m4a", "ogg", "webm", "flac", "aac"] as const;

export const ACCEPTED_EXTENSIONS: readonly string[] = [...DOCUMENT_EXTENSIONS, ...TEXT_LIKE_EXTENSIONS];

export const extensionOf = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? "").toLowerCase();

export const isAcceptedFileName = (name: string) => ACCEPTED_EXTENSIONS.includes(extensionOf(name));

/** Names are shown back to the user and used in downloads, never as storage keys. */
export const documentNameSchema = z
  .string()
  .trim()
  .min(1, "File name is missing")
  .max(255, "File name is too long")
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "File name contains control characters");

const booleanText = z.enum(["true", "false"]).transform((v) => v === "true");

/** POST /api/documents (spec 000 §3 Upload payload). */
export const registerUploadSchema = z.object({
  document_name: documentNameSchema,
  document_type: z.string().trim().max(200).default("application/pdf"),
  document_size: z.coerce.number().int().min(1, "Invalid size").max(MAX_AUDIO_BYTES, "Invalid size"),
  page_count: z.coerce.number().int().min(0).max(100_000).default(0),
  media_type: z.enum(["document", "file"]).default("document"),
  document_source: z.enum(["file", "audio"]).default("file"),
  embedding_data: z
    .object({ keyset_id: z.string().max(100), model: z.string().max(200) })
    .nullish(),
  /** Recordings: the keyset and model that transcribe it; absent = the built-in offline model. */
  transcription_data: z
    .object({ keyset_id: z.string().max(100), model: z.string().max(200) })
    .nullish(),
  ocr: booleanText.default("false"),
  rag_type: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["", ...RAG_TYPES]))
    .default(""),
});
