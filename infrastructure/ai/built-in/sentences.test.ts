import { describe, expect, it } from "vitest";
import type { Passage } from "#application/ports/language-model";
import { composeAnswer } from "./composition";
import { answerKind } from "./question";
import { isUnreadable, splitPassage } from "./sentences";

const passage = (text: string, pageNumber = 1): Passage => ({ chunkId: `doc:${pageNumber}`, documentId: "doc", documentName: "Report", pageNumber, text, score: 1 });

describe("sentences the built-in model may quote", () => {
  it("reads a paragraph's short first line in a paper's narrow column as the start of its sentence, not as a heading", () => {
    const column = "Therefore in this work we propose to prevent the polariton\nescaping by trapping it into a whispering gallery mode\nof a polystyrene micro-sphere.";
    const sentences = splitPassage(`Results\n${column}`, 0);
    expect(sentences.filter((s) => s.heading).map((s) => s.text)).toEqual(["Results"]);
    expect(sentences.filter((s) => !s.heading).map((s) => s.text)).toEqual([column.replace(/\n/g, " ")]);
  });

  it("keeps a sentence whole across the blank line where a page's blocks break, and a finished paragraph apart", () => {
    const text = "We also neglected kinetic energy of the exciton due\n\nto smallness of the resonant wave vector.\n\nbig mass is another reason.";
    expect(splitPassage(text, 0).map((s) => s.text)).toEqual([
      "We also neglected kinetic energy of the exciton due to smallness of the resonant wave vector.",
      "big mass is another reason.",
    ]);
  });

  it("shows a word broken at a line end whole, while the quote keeps the page's exact span", () => {
    const text = "In 1945, these questions became a federal case. When North Car-\nolina farmers started losing chickens, they sued.";
    const [, second] = splitPassage(text, 0);
    expect(second.text).toBe("When North Carolina farmers started losing chickens, they sued.");
    expect(second.quote).toBe("When North Car-\nolina farmers started losing chickens, they sued.");
    expect(text.slice(second.start, second.end)).toBe(second.quote);
  });

  it("takes running headers, footers and page numbers for labels, never for sentences", () => {
    const sentences = splitPassage("network and had therefore violated copyright laws.\n\n50 FREE CULTURE\n\n<http://free-culture.org/get-it>\n\n17", 0);
    expect(sentences.filter((s) => !s.heading).map((s) => s.text)).toEqual(["…network and had therefore violated copyright laws."]);
  });

  it("recognises text that is not readable language: control characters, broken glyphs, letter soup", () => {
    expect(isUnreadable("\u0001\u0002 !\"# \u0003 deposit returned")).toBe(true);
    expect(isUnreadable("Th\ufffde d\ufffdposit")).toBe(true);
    expect(isUnreadable("xq zt pkr mnb vwl dfg hjk")).toBe(true);
    expect(isUnreadable("The landlord returns the deposit within thirty days.")).toBe(false);
  });

  it("never quotes unreadable text, even when it holds the question's words", () => {
    const garbage = "\u0001 deposit \u0002 returned \u0003 thirty days \u0004 tenant \u0005";
    const answer = composeAnswer({ question: "When is the deposit returned to the tenant?", history: [], passages: [passage(garbage)], language: "English" });
    expect(answer.citations).toEqual([]);
    expect(answer.text).not.toContain("\u0001");
  });
});

describe("the kind of answer a question asks for", () => {
  it("reads it from English question words", () => {
    expect(answerKind("How many members does Kazaa boast?")).toBe("quantity");
    expect(answerKind("What is the population of Troy?")).toBe("quantity");
    expect(answerKind("When did Jefferson die?")).toBe("time");
    expect(answerKind("In what year was Keaton born?")).toBe("time");
    expect(answerKind("What did the servant rescue when the house burned?")).toBeNull();
    expect(answerKind("Who founded Starwave?")).toBe("person");
    expect(answerKind("Why did the Causbys sue?")).toBe("reason");
  });

  it("prefers the sentence that holds what is asked for over one that only shares words", () => {
    const text = "The survey counted dunlin on every visit to the marsh. The peak count of dunlin was 2,380 birds on 9 January.";
    const answer = composeAnswer({ question: "How many dunlin were counted?", history: [], passages: [passage(text)], language: "English" }, { maxSentences: 1 });
    expect(answer.text).toContain("2,380");
    expect(answer.citations[0].quote).toBe("The peak count of dunlin was 2,380 birds on 9 January.");
  });
});

describe("summaries and suggested questions", () => {
  it("never draw on unreadable text", async () => {
    const { summarizePassages, suggestQuestionsFrom } = await import("./overview");
    const garbage = "\u0001\u0002 Qx \u0003 zzkt \u0004 the nitrogen index \u0005 heavy deposition \u0006.";
    const readable = "Lichens absorb water and nutrients directly from the air. The nitrogen index maps deposition across a city.";
    const passages = [passage(garbage, 1), passage(readable, 2)];
    expect(summarizePassages(passages)).not.toMatch(/[\u0001-\u0006]/);
    for (const question of suggestQuestionsFrom(passages, 5, "English")) expect(question).not.toMatch(/[\u0001-\u0006]|zzkt/);
  });

  it("ask about sections, not about the entries of a reference list", async () => {
    const { suggestQuestionsFrom } = await import("./overview");
    const references = "References\n[1] LuaJIT roadmap 2008 - http://lua-users.org/lists/lua-l/2008-\n[2] Tracing the meta-level: PyPy's tracing JIT compiler";
    // A heading is a line that stands as a paragraph of its own, as extraction gives it (decision 211).
    const body = "Trace compilation\n\nA tracing compiler records the hot loops of a program and compiles each trace to machine code.";
    const questions = suggestQuestionsFrom([passage(body, 1), passage(references, 2)], 5, "English");
    expect(questions).toContain("What does the document say about trace compilation?");
    for (const question of questions) expect(question).not.toMatch(/\[1\]|\[2\]|http|lua-users/);
  });
});
