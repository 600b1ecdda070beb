import type { AnswerEvent, AnswerInput, ChatTurn, LanguageModel } from "#application/ports/language-model";
import { extractLatexBlock, FIX_LATEX_REQUEST } from "#domain/resume/latex-blocks";
import { repairLatex } from "#domain/resume/latex-repair";

/**
 * Answers in a Resume Builder workspace (spec 001 §2 "LaTeX blocks",
 * docs/decisions/133). A provider model is given the resume's current LaTeX
 * and asked to answer with the whole updated document in a ```latex block.
 * The built-in model cannot write, so it says so — and does what it can:
 * Retry's 'Fix the latex error in previous response' gets its deterministic
 * repairs of the previous answer's (or the resume's) LaTeX.
 */
export function resumeAnswering(model: LanguageModel, resumeLatex: string | null): LanguageModel {
  return {
    id: model.id,
    label: model.label,
    capabilities: model.capabilities,
    summarize: (input) => model.summarize(input),
    suggestQuestions: (input) => model.suggestQuestions(input),
    streamAnswer(input, signal) {
      if (model.capabilities.generative) return model.streamAnswer(withResume(input, resumeLatex), signal);
      return answerAtOnce(builtInResumeAnswer(input, resumeLatex));
    },
  };
}

function withResume(input: AnswerInput, resumeLatex: string | null): AnswerInput {
  const instructions = [
    "You are editing the user's resume, a LaTeX document that compiles with pdflatex.",
    "Answer with one short sentence about what you changed, then the complete updated document in a single ```latex code block (never a fragment).",
    "Keep the preamble and its macros; escape & % $ # _ in text; keep every \\resumeItem and \\resumeSubheading inside its list markers.",
    resumeLatex ? `The resume as saved now:\n\`\`\`latex\n${resumeLatex}\n\`\`\`` : "",
    `Request: ${input.question}`,
  ];
  return { ...input, question: instructions.filter(Boolean).join("\n\n") };
}

/** The LaTeX a Retry is about: the latest answer's block, else the saved resume. */
function latexToFix(history: ChatTurn[], resumeLatex: string | null): string | null {
  for (const turn of [...history].reverse()) {
    if (turn.role !== "assistant") continue;
    const block = extractLatexBlock(turn.text);
    if (block) return block;
  }
  return resumeLatex;
}

const CAN_DO =
  "What I can do here: draft the resume from your documents (I did when this workspace was created), and repair LaTeX errors — escape & % $ # _ written as text, put stray \\item lines into a list, and balance braces and environments.";
const HOW_TO_EDIT =
  "To change the text, edit it in the editor beside the chat, press Compile, then Save. Or choose a model from your own AI keys in Workspace Settings: it can rewrite sections for you.";

export function builtInResumeAnswer(input: Pick<AnswerInput, "question" | "history">, resumeLatex: string | null): string {
  if (input.question.trim().startsWith(FIX_LATEX_REQUEST)) {
    // The editor's Retry carries its source; a chat answer's Retry refers to the answer before.
    const latex = extractLatexBlock(input.question) ?? latexToFix(input.history, resumeLatex);
    if (!latex) return `There is no LaTeX in this chat or in the resume for me to repair.`;
    const { latex: repaired, changes } = repairLatex(latex);
    if (changes.length === 0) {
      return [
        "I could not find an error I know how to repair. I am the built-in model: I work offline and only make deterministic repairs (escaping & % $ # _ in text, putting stray \\item lines into a list, balancing braces and environments).",
        "Look at the line the compile error names and fix it in the editor, or choose a model from your own AI keys in Workspace Settings.",
      ].join("\n\n");
    }
    return [`I repaired the LaTeX: ${changes.join("; ")}.`, `\`\`\`latex\n${repaired.trimEnd()}\n\`\`\``].join("\n\n");
  }
  const summary = resumeLatex ? sectionText(resumeLatex, "Summary") : null;
  return [
    "I am the built-in model: I work offline and cannot write new text, so I cannot rewrite or improve your resume's wording myself.",
    summary ? `Your summary now reads: "${summary}"` : "",
    CAN_DO,
    HOW_TO_EDIT,
  ]
    .filter(Boolean)
    .join("\n\n");
}

/** The plain text of a section of the resume (its first lines), for quoting it back. */
function sectionText(latex: string, title: string): string | null {
  const match = new RegExp(`\\\\section\\{${title}\\}([\\s\\S]*?)(?=\\\\section\\{|\\\\end\\{document\\})`).exec(latex);
  if (!match) return null;
  const text = match[1]!
    .replace(/\\(small|textbf|textit|emph|underline)\s*/g, "")
    .replace(/\\([&%$#_])/g, "$1")
    .replace(/[{}]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text ? text.slice(0, 400) : null;
}

async function* answerAtOnce(text: string): AsyncIterable<AnswerEvent> {
  yield { type: "text", text };
  yield { type: "done", citations: [], usage: { inputTokens: 0, outputTokens: Math.ceil(text.length / 4) } };
}
