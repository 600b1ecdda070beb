import type { AnswerInput } from "#application/ports/language-model";
import { contentTermForms, contentTerms } from "#application/shared/text-analysis";
import { questionTerms } from "#application/conversation/retrieval";
import { mergeForms, type TermForms } from "./sentences";

/**
 * What a question asks: its terms (weighted) and the kind of answer it wants.
 * "Who…?" wants a name, "When…?" a date, "How many…?" a number, "Why…?" a
 * reason: a sentence without one rarely answers, however many words it shares.
 */
export type AnswerKind = "person" | "time" | "quantity" | "reason" | "place" | "name";

export interface Question {
  /** Term → weight: the question itself 1; selected text 0.5; the previous question 0.3 for short follow-ups. */
  weights: Map<string, number>;
  bigrams: Set<string>;
  kind: AnswerKind | null;
  /** The question's words as written (lower-cased), so a name in the question is not taken for the answer. */
  words: Set<string>;
  /** The forms its terms take, up to inflection: a sentence holds a term only in one of these (selection.ts). */
  forms: TermForms;
}

export function analyzeQuestion(input: AnswerInput): Question {
  const weights = new Map<string, number>();
  let forms: TermForms = new Map();
  const addForms = (text: string) => {
    forms = mergeForms(forms, contentTermForms(text));
  };
  const add = (text: string, weight: number) => {
    for (const term of contentTerms(text)) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    addForms(text);
  };
  const terms = questionTerms(input.question);
  for (const term of terms) weights.set(term, 1);
  addForms(input.question);
  if (input.selectedText) add(input.selectedText.slice(0, 2_000), 0.5);
  // "And the deposit?" means little alone: borrow the previous question's terms, weakly.
  if (new Set(terms).size <= 2) {
    const previous = [...input.history].reverse().find((turn) => turn.role === "user");
    if (previous) add(previous.text, 0.3);
  }
  const bigrams = new Set<string>();
  for (let i = 1; i < terms.length; i++) bigrams.add(`${terms[i - 1]} ${terms[i]}`);
  const words = new Set((input.question.toLowerCase().match(/\p{L}+/gu) ?? []).map((w) => w.replace(/s$/, "")));
  return { weights, bigrams, kind: answerKind(input.question), words, forms };
}

/** English question words (other languages keep term matching; they only lose the answer-type cue). */
export function answerKind(question: string): AnswerKind | null {
  const q = question.toLowerCase();
  if (/\b(how (many|much|long|often|old|far|big|large|tall|deep|high|wide|heavy)|by how)\b/.test(q)) return "quantity";
  if (/\bwhat(?:'s| is| was| are| were)?(?: the)? (percentage|share|proportion|fraction|number|amount|price|cost|sum|population|size|length|height|depth|weight|speed|distance|temperature|age)\b/.test(q)) return "quantity";
  if (/^\s*when\b|\b(what (year|date|day|month|century)|which (year|date|day|month|century)|since when|date of birth|birthday)\b/.test(q)) return "time";
  if (/\bwhy\b|\bwhat (caused|made|led)\b|\bfor what reason\b/.test(q)) return "reason";
  if (/^\s*(who|whom|whose)\b|\bwho (was|is|were|did|founded|formed|wrote|built|invented)\b/.test(q)) return "person";
  if (/^\s*where\b|\bin which (country|city|state|place|town)\b|\bwhich (country|city|university|college|company|theater|theatre)\b/.test(q)) return "place";
  if (/\bwhat (was|is) the name\b|\bwhat .{0,20}\bcalled\b|\bwhich (film|book|company|author|judge|congressman|person|man|woman|star)\b/.test(q)) return "name";
  return null;
}

const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|twice|once|dozen|quarter";
const NUMBER = new RegExp(`\\d|\\b(?:${NUMBER_WORDS})\\b`, "i");
const TIME = new RegExp(`\\b(?:1[0-9]{3}|20[0-9]{2})\\b|\\b(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|century|centuries|decades?|years?|months?|weeks?|days?|hours?|minutes?|morning|evening|night|noon|midnight|today|yesterday|tomorrow)\\b`, "i");
const REASON = /\b(?:because|since|so that|in order to|due to|as a result|owing to|for fear|to escape|to avoid|led to|caused|thus|therefore|reason)\b/i;

/**
 * Whether a sentence holds the kind of thing asked for. Names are capitalised
 * words that are not the sentence's first and not already in the question.
 */
export function holdsAnswerKind(sentence: string, question: Question): boolean {
  switch (question.kind) {
    case null:
      return true;
    case "quantity":
      return NUMBER.test(sentence);
    case "time":
      return TIME.test(sentence);
    case "reason":
      return REASON.test(sentence);
    case "person":
    case "place":
    case "name":
      return newNames(sentence, question).length > 0;
  }
}

function newNames(sentence: string, question: Question): string[] {
  const tokens = sentence.match(/[\p{L}][\p{L}'’.-]*/gu) ?? [];
  return tokens.slice(1).filter((t) => /^\p{Lu}/u.test(t) && !question.words.has(t.toLowerCase().replace(/['’]s$|s$/, "")) && t.length > 1);
}
