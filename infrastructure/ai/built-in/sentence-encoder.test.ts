import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cosineSimilarity as cosine, SentenceEncoderEmbedder } from "./sentence-encoder";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** Each case: a passage, a question asking for it in other words, and an unrelated passage. */
const CASES = [
  ["Employees may carry over at most five unused vacation days into the next year.", "How many days of leave can staff keep for later?", "The reactor core is cooled by pressurised water."],
  ["To change your password, open Settings and choose Security.", "Where do I go to update my login credentials?", "Quarterly revenue grew by twelve percent."],
  ["The bridge was closed after engineers found cracks in its steel supports.", "Why was the crossing shut down?", "She baked a chocolate cake for her daughter's birthday."],
];

describe("the built-in embedding model", () => {
  it("embeds in a process whose network is cut off, and a question is closer to the passage it asks about than to an unrelated one", async () => {
    const texts = CASES.flat();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--require", "./tests/support/no-network.cjs", "--import", "tsx", "tests/support/embed-offline.ts", JSON.stringify(texts)],
      { cwd: repoRoot, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const { refused, vectors } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { refused: string[]; vectors: number[][] };

    // The cut-off holds in the process and in its worker threads (the model runs in one).
    expect(refused).toEqual([expect.stringContaining("network is cut off"), expect.stringContaining("network is cut off")]);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) expect(vector).toHaveLength(512);
    for (let i = 0; i < CASES.length; i++) {
      const [passage, question, unrelated] = vectors.slice(i * 3, i * 3 + 3);
      expect(cosine(question, passage)).toBeGreaterThan(cosine(question, unrelated));
    }
  }, 120_000);

  it("answers one vector per text, in order, across batches, for empty and very long texts too", async () => {
    const embedder = new SentenceEncoderEmbedder();
    const texts = Array.from({ length: 20 }, (_, i) => (i === 3 ? "" : i === 7 ? "word ".repeat(5_000) : `Passage number ${i} about topic ${i % 4}.`));
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(20);
    for (const vector of vectors) expect(vector.every(Number.isFinite)).toBe(true);
    // Same text, same vector, wherever it sits in the batches.
    const [again] = await embedder.embed([texts[17]]);
    expect(cosine(again, vectors[17])).toBeCloseTo(1, 5);
    expect(cosine(vectors[17], vectors[18])).toBeLessThan(0.999);
  }, 120_000);

  it("answers a question before the documents' batches still waiting", async () => {
    const embedder = new SentenceEncoderEmbedder();
    const batch = (name: string) => Array.from({ length: 8 }, (_, i) => `${name} passage ${i} about gardening and tomatoes.`);
    const finished: string[] = [];
    const track = (name: string, work: Promise<unknown>) => work.then(() => finished.push(name));
    await Promise.all([
      track("document A", embedder.embed(batch("A"))),
      track("document B", embedder.embed(batch("B"))),
      track("document C", embedder.embed(batch("C"))),
      track("question", embedder.embed(["When should tomatoes be watered?"])),
    ]);
    expect(finished).toEqual(["document A", "question", "document B", "document C"]);
  }, 120_000);

  it("gives up the calls in progress when the runtime stops, and embeds no more", async () => {
    const embedder = new SentenceEncoderEmbedder();
    const long = embedder.embed(Array.from({ length: 40 }, (_, i) => `Passage ${i} of a long document about rivers and bridges.`));
    embedder.close();
    await expect(long).rejects.toThrow("The server is stopping");
    await expect(embedder.embed(["one more"])).rejects.toThrow("The server is stopping");
  }, 120_000);

  it("stops between batches when asked to", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(new SentenceEncoderEmbedder().embed(["a text"], controller.signal)).rejects.toThrow("stopped");
  });
});
