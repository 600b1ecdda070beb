import { describe, expect, it } from "vitest";
import { MAX_AUDIO_BYTES, MAX_FILE_BYTES, uploadByteLimit, uploadTooLargeMessage } from "./upload-rules";

describe("the upload size limit", () => {
  it("is the document limit for files and the larger audio limit for recordings", () => {
    expect(uploadByteLimit("file")).toBe(MAX_FILE_BYTES);
    expect(uploadByteLimit("audio")).toBe(MAX_AUDIO_BYTES);
  });

  it("is named in the refusal for the type that was uploaded", () => {
    expect(uploadTooLargeMessage("file")).toBe("The file is larger than 50 MB, the limit for a document file.");
    expect(uploadTooLargeMessage("audio")).toBe("The file is larger than 100 MB, the limit for recorded audio.");
  });
});
