import { describe, expect, it } from "vitest";
import { answerStreamBody, END_MARKER, EndMarkerGuard, splitAnswerStream } from "./answer-stream";

const run = (chunks: string[]) => {
  const guard = new EndMarkerGuard();
  return chunks.map((c) => guard.push(c)).join("") + guard.flush();
};

async function* source(events: ({ text: string } | { meta: object } | Error)[]) {
  for (const event of events) {
    if (event instanceof Error) throw event;
    yield event;
  }
}

async function written(events: ({ text: string } | { meta: object } | Error)[]) {
  const iterator = source(events);
  const body = answerStreamBody(
    await iterator.next(),
    iterator,
    (event) => ("text" in event ? { text: event.text } : { end: event.meta }),
    (error) => ({ code: "FAILED", message: (error as Error).message }),
  );
  return new Response(body).text();
}

describe("the end-marker guard", () => {
  it("passes ordinary text through unchanged", () => {
    expect(run(["The Nile ", "is long."])).toBe("The Nile is long.");
  });

  it("keeps a quoted [END] from ending the stream, even split across chunks", () => {
    expect(run(["see [EN", "D] here"])).not.toContain(END_MARKER);
    expect(run(["[END]"])).not.toContain(END_MARKER);
    expect(run(["a [E", "N", "D", "] b"]).replace("\u200b", "")).toBe("a [END] b");
  });
});

describe("the answer stream", () => {
  it("writes the answer's text, then [END] and its metadata, which the reader splits again", async () => {
    const wire = await written([{ text: "The Nile " }, { text: "is long." }, { meta: { message_id: "m1" } }]);
    expect(wire).toBe('The Nile is long.[END]{"message_id":"m1"}');
    expect(splitAnswerStream(wire)).toEqual({ text: "The Nile is long.", meta: '{"message_id":"m1"}' });
  });

  it("ends a stream that fails midway with the error, after the text so far", async () => {
    const wire = await written([{ text: "Half an" }, new Error("The provider hung up.")]);
    expect(splitAnswerStream(wire)).toEqual({ text: "Half an", meta: '{"error":{"code":"FAILED","message":"The provider hung up."}}' });
  });

  it("hides a marker that is still arriving", () => {
    expect(splitAnswerStream("Hello [EN")).toEqual({ text: "Hello ", meta: null });
    expect(splitAnswerStream("Hello")).toEqual({ text: "Hello", meta: null });
  });
});
