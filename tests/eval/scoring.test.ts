import { describe, expect, it } from "vitest";
import type { EvalQuestion } from "./questions";
import { citedStatements, evidence, judge, normalizeForMatch, summarize } from "./scoring";

const PAGE = "When North Car-\nolina farmers started losing chickens, the Causbys\nfiled a lawsuit. The Court ruled against them.";
const pageText = (documentId: string, pageNumber: number) => (documentId === "fc" && pageNumber === 18 ? PAGE : documentId === "fc" ? "Another page." : undefined);
const idOf = () => "fc";
const question: EvalQuestion = { question: "Why did the Causbys sue?", kind: "plain", document: "freeculture", pages: [18], fact: /chicken/i };

describe("judging an answer of the evaluation", () => {
  it("compares text as a reader does: escapes, line-end hyphens and spacing do not count", () => {
    expect(normalizeForMatch("When North Car-\nolina  farmers \\*said\\*")).toBe("When North Carolina farmers *said*");
  });

  it("attaches each answer sentence to the citation marker that follows it", () => {
    const text = "According to *Free Culture* (page 18):\n\n> First sentence here. Second one here. [1]\n- “Third sentence.” (*Free Culture*, page 3) [2]";
    expect(citedStatements(text)).toEqual([
      { citation: 0, sentence: "First sentence here." },
      { citation: 0, sentence: "Second one here." },
      { citation: 1, sentence: "Third sentence." },
    ]);
  });

  it("credits the right page, the fact, and sentences their cited page holds verbatim", () => {
    const answer = {
      text: "According to *Free Culture* (page 18):\n\n> When North Carolina farmers started losing chickens, the Causbys filed a lawsuit. [1]",
      citations: [{ documentId: "fc", pageNumber: 18, quote: "When North Car-\nolina farmers started losing chickens, the Causbys\nfiled a lawsuit." }],
    };
    expect(judge(question, answer, pageText, idOf)).toEqual({
      declined: false,
      rightPage: true,
      factFound: true,
      statements: 1,
      supportedStatements: 1,
      citations: 1,
      supportingCitations: 1,
    });
  });

  it("does not credit a sentence its page does not hold, nor a quote that is not a span of the page", () => {
    const invented = { text: "> The farmers won a fortune in court. [1]", citations: [{ documentId: "fc", pageNumber: 18 }] };
    expect(judge(question, invented, pageText, idOf)).toMatchObject({ rightPage: true, factFound: false, supportedStatements: 0, supportingCitations: 0 });
    const badQuote = { text: "> The Court ruled against them. [1]", citations: [{ documentId: "fc", pageNumber: 18, quote: "The Court ruled for them." }] };
    expect(judge(question, badQuote, pageText, idOf)).toMatchObject({ supportedStatements: 0 });
    const wrongPage = { text: "> The Court ruled against them. [1]", citations: [{ documentId: "fc", pageNumber: 3 }] };
    expect(judge(question, wrongPage, pageText, idOf)).toMatchObject({ rightPage: false, supportedStatements: 0 });
  });

  it("counts an answer without citations as declined, and sums shares per kind", () => {
    const declined = judge(question, { text: "I couldn't find this in the documents of this workspace.", citations: [] }, pageText, idOf);
    expect(declined).toMatchObject({ declined: true, rightPage: false, factFound: false });
    const unanswerable: EvalQuestion = { question: "Who won the Tour de France?", kind: "unanswerable" };
    const handed = evidence(question, [{ documentId: "fc", pageNumber: 18, text: PAGE }], idOf);
    const figures = summarize([
      { question, judgement: declined, evidence: handed },
      { question: unanswerable, judgement: judge(unanswerable, { text: "…", citations: [] }, pageText, idOf), evidence: evidence(unanswerable, [], idOf) },
    ]);
    expect(figures).toMatchObject({ answerableWronglyDeclined: 1, unanswerableDeclined: 1, rightPageAnswerable: 0, evidencePageAnswerable: 1, evidenceFactAnswerable: 1 });
    expect(figures.charactersPerQuestion).toBe(PAGE.length / 2);
  });

  it("measures evidence recall on what was handed over: an accepted page, and the fact on such a page", () => {
    const otherPage = { documentId: "fc", pageNumber: 3, text: "Farmers lost chickens here too." };
    expect(evidence(question, [otherPage], idOf)).toEqual({ page: false, fact: false, passages: 1, characters: otherPage.text.length });
    const acceptedWithoutFact = { documentId: "fc", pageNumber: 18, text: "The Court ruled against them." };
    expect(evidence(question, [otherPage, acceptedWithoutFact], idOf)).toMatchObject({ page: true, fact: false, passages: 2 });
    expect(evidence(question, [{ documentId: "fc", pageNumber: 18, text: "started losing chick-\nens" }], idOf)).toMatchObject({ page: true, fact: true });
    expect(evidence(question, [{ documentId: "other", pageNumber: 18, text: PAGE }], idOf)).toMatchObject({ page: false, fact: false });
  });

  it("accepts the same text set in another document: a citation or passage of either counts", () => {
    const twice: EvalQuestion = { ...question, document: "sigconf", pages: [2], also: { document: "sigplan", pages: [3] } };
    const ids = (key: string) => (key === "sigconf" ? "conf" : "plan");
    const cite = (documentId: string, pageNumber: number) => judge(twice, { text: "> The Causbys sued. [1]", citations: [{ documentId, pageNumber }] }, () => "The Causbys sued.", ids);
    expect(cite("conf", 2).rightPage).toBe(true);
    expect(cite("plan", 3).rightPage).toBe(true);
    expect(cite("plan", 2).rightPage).toBe(false);
    expect(evidence(twice, [{ documentId: "plan", pageNumber: 3, text: "lost chickens" }], ids)).toMatchObject({ page: true, fact: true });
    expect(evidence(twice, [{ documentId: "conf", pageNumber: 3, text: "lost chickens" }], ids)).toMatchObject({ page: false, fact: false });
  });
});
