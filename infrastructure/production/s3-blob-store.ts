import { Readable } from "node:stream";
import type { CompletedPart, S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import type { BlobInfo, BlobStore, ByteRange, StoredBlob } from "#application/ports/blob-store";
import { InvalidBlobKeyError, validateKey } from "#infrastructure/embedded/local-blob-store";

/** S3's minimum part size is 5 MiB; 8 MiB parts keep a 5 TB object under the 10,000-part limit... well, 80 GB. */
const PART_SIZE = 8 * 1024 * 1024;
const DELETE_BATCH = 1000;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Any S3-compatible endpoint (MinIO, Ceph, R2...); unset for AWS S3. */
  endpoint?: string;
  region?: string;
  /** Path-style URLs (`endpoint/bucket/key`); default true when an endpoint is given (MinIO needs it). */
  forcePathStyle?: boolean;
  credentials?: S3ClientConfig["credentials"];
  /** The endpoint browsers use for presigned URLs when it differs from the server-side one (e.g. docker's internal host name). */
  publicEndpoint?: string;
}

export interface PresignedUpload {
  url: string;
  method: "PUT";
  /** Headers the uploader must send exactly as given: they are part of the signature. */
  headers: Record<string, string>;
  expiresAt: string;
}

export interface PresignedDownload {
  url: string;
  expiresAt: string;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

function validatePrefix(prefix: string): void {
  if (prefix !== "") validateKey(prefix, { allowTrailingSlash: true, allowPartialSegment: true });
}

async function* chunksOf(body: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    pending.push(buffer);
    length += buffer.length;
    while (length >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      length = all.length - size;
    }
  }
  if (length > 0 || pending.length === 0) yield Buffer.concat(pending);
}

/** The commands and presigner the store uses, from the AWS SDK's two packages. */
type S3Sdk = typeof import("@aws-sdk/client-s3") & Pick<typeof import("@aws-sdk/s3-request-presigner"), "getSignedUrl">;

/**
 * The blob port on S3 or any S3-compatible store (ARCHITECTURE §4, `S3_BUCKET`).
 * Keys follow the same rules as the local store (validated, never user file
 * names). Metadata becomes S3 user metadata (`x-amz-meta-*`, lower-case keys).
 * Stream bodies of unknown length go up as a multipart upload, so they are
 * never held in memory whole.
 */
export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly presignClient: S3Client;
  private readonly sdk: S3Sdk;

  private constructor(sdk: S3Sdk, options: { bucket: string; client: S3Client; presignClient: S3Client }) {
    this.sdk = sdk;
    this.bucket = options.bucket;
    this.client = options.client;
    this.presignClient = options.presignClient;
  }

  /** The AWS SDK is imported here, not with the server bundle: an installation without S3 never loads it (decision 253). */
  static async create(options: S3BlobStoreOptions): Promise<S3BlobStore> {
    const [s3, presigner] = await Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/s3-request-presigner")]);
    const sdk: S3Sdk = { ...s3, getSignedUrl: presigner.getSignedUrl };
    const { S3Client } = sdk;
    const config = (endpoint: string | undefined): S3ClientConfig => ({
      region: options.region ?? "us-east-1",
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    const client = new S3Client(config(options.endpoint));
    const presignClient = options.publicEndpoint ? new S3Client(config(options.publicEndpoint)) : client;
    return new S3BlobStore(sdk, { bucket: options.bucket, client, presignClient });
  }

  async put(
    key: string,
    body: Buffer | Readable,
    options: { contentType: string; metadata?: Record<string, string> },
  ): Promise<BlobInfo> {
    validateKey(key);
    const metadata = { ...(options.metadata ?? {}) };
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: body.length,
          ContentType: options.contentType,
          Metadata: metadata,
        }),
      );
      return { key, size: body.length, contentType: options.contentType, metadata };
    }
    const size = await this.putStream(key, body, options.contentType, metadata);
    return { key, size, contentType: options.contentType, metadata };
  }

  /** One PutObject when the stream is smaller than a part, else a multipart upload (aborted on failure). */
  private async putStream(key: string, body: Readable, contentType: string, metadata: Record<string, string>): Promise<number> {
    const chunks = chunksOf(body, PART_SIZE);
    const first = await chunks.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    const second = firstPart.length < PART_SIZE ? { done: true as const, value: undefined } : await chunks.next();
    if (second.done) {
      await this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: firstPart,
          ContentLength: firstPart.length,
          ContentType: contentType,
          Metadata: metadata,
        }),
      );
      return firstPart.length;
    }
    const created = await this.client.send(
      new this.sdk.CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, Metadata: metadata }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error(`S3 returned no UploadId for ${key}`);
    const parts: CompletedPart[] = [];
    let size = 0;
    try {
      const upload = async (part: Buffer) => {
        const partNumber = parts.length + 1;
        const result = await this.client.send(
          new this.sdk.UploadPartCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId: uploadId,
            PartNumber: partNumber,
            Body: part,
            ContentLength: part.length,
          }),
        );
        parts.push({ ETag: result.ETag, PartNumber: partNumber });
        size += part.length;
      };
      await upload(firstPart);
      await upload(second.value);
      for await (const part of chunks) if (part.length > 0) await upload(part);
      await this.client.send(
        new this.sdk.CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
      return size;
    } catch (error) {
      await this.client
        .send(new this.sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
        .catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredBlob | null> {
    validateKey(key);
    try {
      const result = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = result.Body;
      if (!(body instanceof Readable)) throw new Error("S3 GetObject returned a body that is not a Node stream");
      return {
        key,
        // A ranged answer's length is the range's; the whole size follows the slash of "bytes 0-99/1234".
        size: range ? Number(result.ContentRange?.split("/")[1] ?? 0) : (result.ContentLength ?? 0),
        contentType: result.ContentType ?? "application/octet-stream",
        metadata: { ...(result.Metadata ?? {}) },
        body,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    validateKey(key);
    return this.headUnchecked(key);
  }

  private async headUnchecked(key: string): Promise<BlobInfo | null> {
    try {
      const result = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: result.ContentLength ?? 0,
        contentType: result.ContentType ?? "application/octet-stream",
        metadata: { ...(result.Metadata ?? {}) },
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    validateKey(key);
    // S3's DeleteObject succeeds for a missing key: idempotent as the port wants.
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === "") throw new InvalidBlobKeyError(prefix, "deletePrefix needs a non-empty prefix");
    validatePrefix(prefix);
    const keys = await this.listKeys(prefix);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const result = await this.client.send(
        new this.sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (result.Errors?.length) {
        throw new Error(`S3 refused to delete ${result.Errors.length} objects under ${prefix}: ${result.Errors[0].Message ?? ""}`);
      }
    }
    return keys.length;
  }

  /** Content type and metadata are not part of S3's listing: one HEAD per blob (lists are short: one user's files). */
  async list(prefix: string): Promise<BlobInfo[]> {
    validatePrefix(prefix);
    const keys = await this.listKeys(prefix);
    const infos = await Promise.all(keys.map((k) => this.headUnchecked(k)));
    return infos.filter((info): info is BlobInfo => info !== null);
  }

  private async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // Same order as the local store (JS string order).
    return keys.sort();
  }

  /**
   * A URL the browser PUTs the file to directly. The document and user ids are
   * signed as `x-amz-meta-document_id` / `x-amz-meta-user_id` headers, so an
   * upload without them (or with other values) is refused by S3.
   */
  async presignUpload(
    key: string,
    options: { contentType: string; documentId: string; userId: string; expiresInSeconds?: number },
  ): Promise<PresignedUpload> {
    validateKey(key);
    const expiresIn = options.expiresInSeconds ?? 900;
    const headers = {
      "content-type": options.contentType,
      "x-amz-meta-document_id": options.documentId,
      "x-amz-meta-user_id": options.userId,
    };
    const url = await this.sdk.getSignedUrl(
      this.presignClient,
      new this.sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: options.contentType,
        Metadata: { document_id: options.documentId, user_id: options.userId },
      }),
      {
        expiresIn,
        // Keep them headers (signed), not query parameters: the uploader must send them.
        unhoistableHeaders: new Set(["x-amz-meta-document_id", "x-amz-meta-user_id"]),
        signableHeaders: new Set(["content-type", "x-amz-meta-document_id", "x-amz-meta-user_id"]),
      },
    );
    return { url, method: "PUT", headers, expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() };
  }

  /** A time-limited download URL; `fileName` sets the name the browser saves it under. */
  async presignDownload(key: string, options: { expiresInSeconds?: number; fileName?: string } = {}): Promise<PresignedDownload> {
    validateKey(key);
    const expiresIn = options.expiresInSeconds ?? 300;
    const disposition = options.fileName
      ? `attachment; filename*=UTF-8''${encodeURIComponent(options.fileName)}`
      : undefined;
    const url = await this.sdk.getSignedUrl(
      this.presignClient,
      new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, ...(disposition ? { ResponseContentDisposition: disposition } : {}) }),
      { expiresIn },
    );
    return { url, expiresAt: new Date(Date.now() + expiresIn * 1000).toISOString() };
  }
}
