import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { S3BlobStore } from "#infrastructure/production/s3-blob-store";
import { serverFor, useServer, type RunningServer } from "../support/server-availability";
import { blobStoreContract } from "./blob-store.contract";

const credentials = (server: RunningServer) =>
  server.env.AWS_ACCESS_KEY_ID && server.env.AWS_SECRET_ACCESS_KEY
    ? { accessKeyId: server.env.AWS_ACCESS_KEY_ID, secretAccessKey: server.env.AWS_SECRET_ACCESS_KEY }
    : undefined;

/** Signing needs no server: the offline suite signs with this store. */
const signingStore = await S3BlobStore.create({
  bucket: "docuchat-files",
  endpoint: "http://minio.internal:9000",
  publicEndpoint: "https://files.example.com",
  region: "eu-central-1",
  credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret-example" },
});

describe("S3BlobStore presigned URLs (offline: signing needs no server)", () => {
  const store = signingStore;

  it("signs an upload URL that requires the x-amz-meta-document_id and x-amz-meta-user_id headers", async () => {
    const upload = await store.presignUpload("users/u1/docs/d1.pdf", {
      contentType: "application/pdf",
      documentId: "d1",
      userId: "u1",
      expiresInSeconds: 600,
    });
    const url = new URL(upload.url);
    expect(url.origin).toBe("https://files.example.com");
    expect(url.pathname).toBe("/docuchat-files/users/u1/docs/d1.pdf");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("600");
    const signed = (url.searchParams.get("X-Amz-SignedHeaders") ?? "").split(";");
    expect(signed).toEqual(expect.arrayContaining(["content-type", "host", "x-amz-meta-document_id", "x-amz-meta-user_id"]));
    // Headers, not query parameters: the uploader cannot leave them out or change them.
    expect(url.searchParams.has("x-amz-meta-document_id")).toBe(false);
    expect(upload).toMatchObject({
      method: "PUT",
      headers: { "content-type": "application/pdf", "x-amz-meta-document_id": "d1", "x-amz-meta-user_id": "u1" },
    });
  });

  it("signs a download URL with a limited lifetime and the file name to save under", async () => {
    const download = await store.presignDownload("users/u1/docs/d1.pdf", { fileName: "Report 2024.pdf" });
    const url = new URL(download.url);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("response-content-disposition")).toBe("attachment; filename*=UTF-8''Report%202024.pdf");
  });

  it("refuses to sign a hostile key", async () => {
    await expect(store.presignUpload("../x", { contentType: "text/plain", documentId: "d", userId: "u" })).rejects.toThrow();
  });
});

/** The blob contract of the local-files adapter, run against S3 (S3_ENDPOINT + S3_BUCKET, or MinIO under Testcontainers). */
const plan = await serverFor("s3");

describe.skipIf(plan.skip !== undefined)(`S3 (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;

  async function storeFor(bucket: string): Promise<{ store: S3BlobStore; client: S3Client }> {
    if (!server) throw new Error("unreachable: the suite is skipped without a server");
    const s = server();
    const options = { bucket, endpoint: s.url, region: s.env.S3_REGION, credentials: credentials(s) };
    const store = await S3BlobStore.create(options);
    const client = new S3Client({ endpoint: s.url, region: s.env.S3_REGION ?? "us-east-1", forcePathStyle: true, credentials: credentials(s) });
    return { store, client };
  }

  // A fresh bucket per test: the contract uses fixed keys, and a shared server keeps other runs' objects.
  blobStoreContract("S3", async () => {
    const bucket = `contract-${randomUUID().slice(0, 18)}`;
    const { store, client } = await storeFor(bucket);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    return {
      store,
      cleanup: async () => {
        const left = await store.list("");
        for (const blob of left) await store.delete(blob.key);
        await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      },
    };
  });

  it("accepts a presigned upload that sends the signed metadata headers, and refuses one without them", async () => {
    const bucket = `presign-${randomUUID().slice(0, 18)}`;
    const { store, client } = await storeFor(bucket);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    try {
      const upload = await store.presignUpload("users/u1/docs/d1.txt", { contentType: "text/plain", documentId: "d1", userId: "u1" });
      const accepted = await fetch(upload.url, { method: "PUT", body: "hello", headers: upload.headers });
      expect(accepted.ok).toBe(true);
      expect(await store.head("users/u1/docs/d1.txt")).toEqual({
        key: "users/u1/docs/d1.txt",
        size: 5,
        contentType: "text/plain",
        metadata: { document_id: "d1", user_id: "u1" },
      });
      const download = await store.presignDownload("users/u1/docs/d1.txt");
      expect(await (await fetch(download.url)).text()).toBe("hello");
      // Signature checks are the server's: S3 and MinIO refuse an upload that leaves out a signed header.
      const refused = await fetch(upload.url, { method: "PUT", body: "x", headers: { "content-type": "text/plain" } });
      expect(refused.ok).toBe(false);
    } finally {
      await store.deletePrefix("users/");
      await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    }
  });

  it("streams a body larger than one part as a multipart upload", async () => {
    const bucket = `multipart-${randomUUID().slice(0, 18)}`;
    const { store, client } = await storeFor(bucket);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    try {
      const bytes = Buffer.alloc(8 * 1024 * 1024 + 1234);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 256;
      const chunks = [];
      for (let i = 0; i < bytes.length; i += 1_000_000) chunks.push(bytes.subarray(i, i + 1_000_000));
      const info = await store.put("big/file.bin", Readable.from(chunks), { contentType: "application/octet-stream", metadata: { k: "v" } });
      expect(info.size).toBe(bytes.length);
      const blob = await store.get("big/file.bin");
      const read: Buffer[] = [];
      for await (const chunk of blob!.body) read.push(chunk as Buffer);
      expect(Buffer.concat(read).equals(bytes)).toBe(true);
      expect(blob).toMatchObject({ size: bytes.length, contentType: "application/octet-stream", metadata: { k: "v" } });
    } finally {
      await store.deletePrefix("big/");
      await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    }
  }, 60_000);
});
