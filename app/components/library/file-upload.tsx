import { Badge, Button, Dialog, Flex, Heading, IconButton, Progress, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { Link, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from "react";
import { CloseIcon, DownloadIcon, EyeIcon, FileIcon, UploadIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { ACCEPTED_EXTENSIONS, extensionOf, isAcceptedFileName, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "#domain/library/upload-rules";
import { AdvancedSettings, type AdvancedSettingsValue } from "./advanced-settings";
import { formatSize } from "./format";
import { FilePreview } from "./file-preview";
import { estimatePages, mediaTypeOf, postJson, uploadContentType, uploadEach } from "./upload-client";
import { useCsrfToken } from "#app/components/use-csrf";

/** Spec 000 §3 Local selected file. */
export type LocalFile = {
  fileId: string;
  fileName: string;
  fileSize: number;
  fileType: string;
  file: File;
  fileUrl: string;
  filePageCount: number | null;
  isNewUpload: boolean;
  progress: number | null;
  error: string | null;
};

const ACCEPT = ACCEPTED_EXTENSIONS.map((ext) => `.${ext}`).join(",");
let nextId = 1;

export function FileUpload({ remainingPages }: { remainingPages: number }) {
  const [files, setFiles] = useState<LocalFile[]>([]);
  const [settings, setSettings] = useState<AdvancedSettingsValue>({ ocr: false, ragType: "" });
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<LocalFile | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const filesRef = useRef(files);
  filesRef.current = files;
  /** Page counts still being read, so Upload can wait for them instead of refusing. */
  const pageCounts = useRef(new Map<string, Promise<number>>());
  const toast = useToast();
  const navigate = useNavigate();
  const csrfToken = useCsrfToken();

  // Object URLs are released when files leave the list or the page unmounts.
  useEffect(() => () => filesRef.current.forEach((f) => URL.revokeObjectURL(f.fileUrl)), []);

  const addFiles = useCallback(
    (list: FileList | File[]) => {
      const incoming = Array.from(list);
      const accepted: File[] = [];
      const refused: string[] = [];
      const tooBig: string[] = [];
      for (const file of incoming) {
        if (!isAcceptedFileName(file.name)) refused.push(file.name);
        else if (file.size === 0) toast.push({ type: "error", message: `${file.name}: Invalid size` });
        else if (file.size > MAX_FILE_BYTES) tooBig.push(file.name);
        else accepted.push(file);
      }
      if (refused.length) {
        toast.push({
          type: "error",
          message: `${refused.join(", ")}: this file type is not supported. Use PDF, Word, PowerPoint, Excel, images (JPG, PNG) or text files.`,
        });
      }
      if (tooBig.length) toast.push({ type: "error", message: `${tooBig.join(", ")}: files can be at most ${formatSize(MAX_FILE_BYTES)}.` });
      const room = MAX_FILES_PER_UPLOAD - filesRef.current.length;
      if (accepted.length > room) toast.push({ type: "info", message: "Cannot upload more than 10 files" });
      const kept = accepted.slice(0, Math.max(0, room));
      if (!kept.length) return;
      const added: LocalFile[] = kept.map((file) => ({
        fileId: `local-${nextId++}`,
        fileName: file.name,
        fileSize: file.size,
        fileType: uploadContentType(file),
        file,
        fileUrl: URL.createObjectURL(file),
        filePageCount: null,
        isNewUpload: true,
        progress: null,
        error: null,
      }));
      setFiles((current) => [...current, ...added]);
      for (const item of added) {
        const counting = estimatePages(item.file);
        pageCounts.current.set(item.fileId, counting);
        void counting.then((pages) => {
          pageCounts.current.delete(item.fileId);
          setFiles((current) => current.map((f) => (f.fileId === item.fileId ? { ...f, filePageCount: pages } : f)));
        });
      }
    },
    [toast],
  );

  const remove = (fileId: string) =>
    setFiles((current) => {
      const gone = current.find((f) => f.fileId === fileId);
      if (gone) URL.revokeObjectURL(gone.fileUrl);
      return current.filter((f) => f.fileId !== fileId);
    });

  const patch = (fileId: string, fields: Partial<LocalFile>) =>
    setFiles((current) => current.map((f) => (f.fileId === fileId ? { ...f, ...fields } : f)));

  async function uploadAll() {
    if (uploading || files.length === 0) return;
    setUploading(true);
    // A file picked a moment ago may still be being counted: wait for it rather than refuse.
    const counted = await Promise.all(
      files.map(async (f) => ({ ...f, filePageCount: f.filePageCount ?? (await (pageCounts.current.get(f.fileId) ?? Promise.resolve(1))) })),
    );
    const pages = counted.reduce((sum, f) => sum + f.filePageCount, 0);
    // The server answers whether the batch fits what is left of the plan, in the spec's words.
    try {
      await postJson("/api/usage/pages", { pages }, csrfToken);
    } catch (error) {
      setUploading(false);
      toast.push({ type: "error", message: error instanceof Error ? error.message : "Something went wrong" });
      return;
    }
    const failed = await uploadEach(counted, csrfToken, {
      describe: (item) => ({
        name: item.fileName,
        body: item.file,
        contentType: item.fileType,
        payload: {
          document_name: item.fileName,
          document_type: item.fileType || "application/pdf",
          document_size: item.fileSize,
          page_count: item.filePageCount ?? 1,
          media_type: mediaTypeOf(item.fileName),
          document_source: "file",
          embedding_data: null,
          ocr: settings.ocr ? "true" : "false",
          rag_type: settings.ragType,
        },
      }),
      progress: (item, progress, error) => patch(item.fileId, { progress, error }),
      done: (item) => remove(item.fileId),
      failed: (name, message) => toast.push({ type: "error", message: `${name}: ${message}` }),
      uploaded: async (_item, documentId) => {
        const communityId = settings.shareWith;
        if (communityId) await postJson(`/api/communities/${encodeURIComponent(communityId)}/contributions`, { document_id: documentId }, csrfToken);
      },
    });
    setUploading(false);
    if (failed === 0) {
      toast.push({ type: "success", message: "Uploaded All Files" });
      window.setTimeout(() => navigate("/history/documents"), 1000);
    }
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!uploading && event.dataTransfer.files.length) addFiles(event.dataTransfer.files);
  };
  const openPicker = () => {
    if (!uploading) inputRef.current?.click();
  };
  const onZoneKey = (event: KeyboardEvent) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openPicker();
    }
  };

  const totalPages = files.reduce((sum, f) => sum + (f.filePageCount ?? 0), 0);

  return (
    <div className="dc-upload-grid">
      <div className="dc-upload-main">
        <div
          role="button"
          tabIndex={0}
          aria-label="Drag and drop files here, or press Enter to browse"
          aria-describedby="dropzone-hint"
          aria-disabled={uploading || undefined}
          className={`dc-dropzone${dragging ? " is-dragging" : ""}`}
          data-testid="dropzone"
          onClick={openPicker}
          onKeyDown={onZoneKey}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <span className="dc-dropzone__icon">
            <UploadIcon size={28} />
          </span>
          <Text as="p" size="4" weight="bold">
            Drag &amp; drop files here or <span className="dc-dropzone__browse">Browse</span>
          </Text>
          <Text as="p" size="2" color="gray" id="dropzone-hint">
            PDF, Word, PowerPoint, Excel, JPG, PNG and text files · up to {MAX_FILES_PER_UPLOAD} files, {formatSize(MAX_FILE_BYTES)} each ·{" "}
            {remainingPages} pages left this month
          </Text>
        </div>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          className="dc-visually-hidden"
          tabIndex={-1}
          aria-label="Choose files to upload"
          data-testid="file-input"
          onChange={(e) => {
            if (e.currentTarget.files) addFiles(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />

        <section className="dc-lib-card" aria-labelledby="selected-files">
          <Flex justify="between" align="center" mb="3" gap="3" wrap="wrap">
            <Heading as="h2" size="4" id="selected-files">
              Selected files
            </Heading>
            <Flex gap="2" align="center">
              <Badge color="gray" variant="soft">
                {files.length}/{MAX_FILES_PER_UPLOAD} files
              </Badge>
              <Badge color="gray" variant="soft">
                {totalPages} {totalPages === 1 ? "page" : "pages"}
              </Badge>
            </Flex>
          </Flex>
          {files.length === 0 ? (
            <div className="dc-empty">
              <FileIcon size={28} />
              <Text size="2" color="gray">
                No files to show
              </Text>
            </div>
          ) : (
            <ul className="dc-file-list" aria-label="Selected files">
              {files.map((item) => (
                <li key={item.fileId} className="dc-file-row" data-testid="selected-file">
                  <span className="dc-file-row__icon" aria-hidden="true">
                    {extensionOf(item.fileName).toUpperCase().slice(0, 4) || "FILE"}
                  </span>
                  <div className="dc-file-row__body">
                    <Text as="div" size="2" weight="medium" className="dc-ellipsis" title={item.fileName}>
                      {item.fileName}
                    </Text>
                    <Text as="div" size="1" color="gray">
                      {formatSize(item.fileSize)} ·{" "}
                      {item.filePageCount === null ? "counting pages…" : `${item.filePageCount} ${item.filePageCount === 1 ? "page" : "pages"}`}
                    </Text>
                    {item.progress !== null ? (
                      <Progress
                        value={Math.round(item.progress * 100)}
                        size="1"
                        mt="2"
                        aria-label={`Uploading ${item.fileName}`}
                        data-testid="upload-progress"
                      />
                    ) : null}
                    {item.error ? (
                      <Text as="div" size="1" color="red" mt="1" role="alert">
                        {item.error}
                      </Text>
                    ) : null}
                  </div>
                  <Flex gap="1" align="center" className="dc-file-row__actions">
                    <Tooltip content="Preview">
                      <IconButton variant="ghost" color="gray" aria-label={`Preview ${item.fileName}`} onClick={() => setPreview(item)}>
                        <EyeIcon size={18} />
                      </IconButton>
                    </Tooltip>
                    <Tooltip content="Download">
                      <IconButton asChild variant="ghost" color="gray">
                        <a href={item.fileUrl} download={item.fileName} aria-label={`Download ${item.fileName}`}>
                          <DownloadIcon />
                        </a>
                      </IconButton>
                    </Tooltip>
                    <Tooltip content="Remove">
                      <IconButton
                        variant="ghost"
                        color="red"
                        aria-label={`Remove ${item.fileName}`}
                        disabled={uploading}
                        onClick={() => remove(item.fileId)}
                      >
                        <CloseIcon size={16} />
                      </IconButton>
                    </Tooltip>
                  </Flex>
                </li>
              ))}
            </ul>
          )}
          <Flex justify="end" mt="4">
            <Button size="3" onClick={uploadAll} disabled={files.length === 0 || uploading} loading={uploading} data-testid="upload-files">
              <UploadIcon size={18} />
              UPLOAD FILES
            </Button>
          </Flex>
        </section>
      </div>

      <aside className="dc-upload-side" aria-label="Upload options">
        <AdvancedSettings value={settings} onChange={setSettings} />
        <div className="dc-lib-card dc-contribute">
          <Heading as="h2" size="3" mb="1">
            Contribute to the library
          </Heading>
          <Text as="p" size="2" color="gray">
            Sharing documents with a community lets other readers study them too. Tick &lsquo;Share with community&rsquo; in the
            advanced settings to add these files to one of your communities, or{" "}
            <Link to="/community/publicCommunity" className="dc-text-link">
              explore the public communities
            </Link>
            .
          </Text>
        </div>
      </aside>

      <Dialog.Root open={preview !== null} onOpenChange={(open) => (open ? undefined : setPreview(null))}>
        <Dialog.Content maxWidth="860px" aria-describedby={undefined}>
          <Flex justify="between" align="center" gap="3" mb="3">
            <Dialog.Title mb="0" className="dc-ellipsis">
              {preview?.fileName ?? "Preview"}
            </Dialog.Title>
            <Dialog.Close>
              <IconButton variant="ghost" color="gray" aria-label="Close preview">
                <CloseIcon />
              </IconButton>
            </Dialog.Close>
          </Flex>
          {preview ? <FilePreview file={preview.file} url={preview.fileUrl} /> : null}
        </Dialog.Content>
      </Dialog.Root>
    </div>
  );
}
