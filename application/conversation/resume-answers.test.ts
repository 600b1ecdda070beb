import { describe, expect, it } from "vitest";
import type { AnswerEvent, AnswerInput, LanguageModel } from "#application/ports/language-model";
import { extractLatexBlock, FIX_LATEX_REQUEST, fixLatexMessage } from "#domain/resume/latex-blocks";
import { builtInResumeAnswer, resumeAnswering } from "./resume-answers";

const resume = "\\documentclass{article}\n\\begin{document}\n\\section{Summary}\n\\small{Backend engineer \\& mentor.}\n\\end{document}\n";
const broken = resume.replace("\\&", "&");

describe("answers in a Resume Builder workspace", () => {
  it("the built-in model says plainly it cannot rewrite the summary, quotes it, and says what it can do", () => {
    const answer = builtInResumeAnswer({ question: "Rewrite my professional summary to be more impactful", history: [] }, resume);
    expect(answer).toMatch(/cannot write new text/);
    expect(answer).toContain('Your summary now reads: "Backend engineer & mentor."');
    expect(answer).toMatch(/repair LaTeX errors/);
    expect(extractLatexBlock(answer)).toBeNull();
  });

  it("Retry repairs the previous answer's LaTeX and answers with the repaired document", () => {
    const previous = `Here it is:\n\`\`\`latex\n${broken}\`\`\``;
    const question = fixLatexMessage({ message: "Misplaced alignment tab character &.", line: 4 }, broken);
    expect(question.startsWith(FIX_LATEX_REQUEST)).toBe(true);
    expect(question).toContain("4: \\small{Backend engineer & mentor.}");
    const answer = builtInResumeAnswer({ question, history: [{ role: "user", text: "x" }, { role: "assistant", text: previous }] }, resume);
    expect(answer).toMatch(/I repaired the LaTeX: escaped special characters in text/);
    expect(extractLatexBlock(answer)).toBe(resume);
  });

  it("Retry says so when it finds nothing it knows how to repair", () => {
    const answer = builtInResumeAnswer({ question: FIX_LATEX_REQUEST, history: [] }, resume.replace("\\small", "\\smal"));
    expect(answer).toMatch(/could not find an error I know how to repair/);
  });

  it("a provider model gets the resume's LaTeX and the request", async () => {
    let seen: AnswerInput | null = null;
    const provider: LanguageModel = {
      id: "openai:gpt",
      label: "GPT",
      capabilities: { images: false, generative: true },
      async *streamAnswer(input): AsyncIterable<AnswerEvent> {
        seen = input;
        yield { type: "done", citations: [], usage: { inputTokens: 1, outputTokens: 1 } };
      },
      summarize: async () => "",
      suggestQuestions: async () => [],
    };
    for await (const _ of resumeAnswering(provider, resume).streamAnswer({ question: "Shorten my summary", history: [], passages: [], language: "English" }));
    expect(seen!.question).toContain(resume);
    expect(seen!.question).toContain("Request: Shorten my summary");
  });
});
