import { contentTermForms, contentTerms, foldDiacritics } from "#application/shared/text-analysis";

/**
 * Passages cut into the sentences the built-in model can quote. Each keeps
 * the exact span of the passage it came from (`quote`, what a citation
 * highlights) and a clean form to show (`text`: words broken at a line end
 * rejoined, whitespace collapsed). Headings, running headers and footers and
 * text that is not readable language are marked so they are never quoted.
 */
export interface Sentence {
  /** Clean text to show; "…" marks where a chunk cut a sentence. */
  text: string;
  /** The exact span of the passage's text this sentence was read from: text.slice(start, end). */
  quote: string;
  start: number;
  end: number;
  terms: string[];
  termSet: Set<string>;
  /** Its terms with the forms they take in it, up to inflection: what a question's word must be to count as held. */
  forms: TermForms;
  /** Terms of the sentence's heading, previous sentence and document name (with their forms): what "it" and "this" may refer to. */
  context: TermForms;
  /** The span of the passage's text from the sentence's heading (or the passage's start) to the next heading (or its end). */
  section: { start: number; end: number };
  passage: number;
  /** Position in the passage. */
  index: number;
  /** A heading, running header or footer: a label, not an answer. */
  heading: boolean;
  partial: boolean;
  /** Looks like garbage (control characters, broken glyphs, letter soup): never quoted. */
  unreadable: boolean;
}

/** Term → the forms it is written in, up to inflection (`contentTermForms`). */
export type TermForms = Map<string, Set<string>>;

const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st no nr vs etc e.g i.e eg ie fig figs p pp inc ltd co corp jr sr approx art sec ch vol ed eds dept est min max".split(" "),
);
const SENTENCE_END = /[.!?…]+["'”’»)\]]*\s+(?=["“'«(\[¿¡]?[\p{Lu}\p{N}])|[。！？]+/gu;

/** Splits a passage into headings and sentences, in order, with the context each sentence inherits. */
export function splitPassage(text: string, passage: number, documentName = ""): Sentence[] {
  const pieces: { start: number; end: number; heading: boolean }[] = [];
  const lineRe = /[^\n]*(?:\n|$)/g;
  let paragraph: { start: number; end: number } | null = null;
  const flush = () => {
    if (paragraph) for (const [start, end] of splitSentences(text, paragraph.start, paragraph.end)) pieces.push({ start, end, heading: false });
    paragraph = null;
  };
  const lines: { start: number; end: number }[] = [];
  for (const match of text.matchAll(lineRe)) {
    if (match[0] === "") break;
    const raw = match[0].replace(/\n$/, "");
    const lead = raw.length - raw.trimStart().length;
    lines.push({ start: match.index + lead, end: match.index + raw.trimEnd().length });
  }
  for (let i = 0; i < lines.length; i++) {
    const { start, end } = lines[i];
    if (end <= start) {
      // A blank line ends a paragraph, unless a sentence runs on across it: a page's blocks break at a
      // column's foot, beside a figure or an equation, whatever the sentence.
      if (!(paragraph && runsOn(text, paragraph.end, lines, i))) flush();
      continue;
    }
    const line = text.slice(start, end);
    // A column of a paper is ten words wide: a paragraph's first line is no heading when the next line goes on with its sentence.
    const continued = runsOn(text, end, lines, i);
    if (!paragraph && (isRunningHeader(line) || (isHeading(line) && !continued))) pieces.push({ start, end, heading: true });
    else if (paragraph && isRunningHeader(line)) {
      flush();
      pieces.push({ start, end, heading: true });
    } else if (paragraph) paragraph.end = end;
    else paragraph = { start, end };
  }
  flush();

  const sentences: Sentence[] = [];
  // The document's name is context for all of its sentences: "the bridge" in a question about "The Kessling Bridge: A History".
  const title = contentTermForms(documentName);
  const sections = sectionsOf(pieces, text.length);
  let heading: TermForms = new Map();
  let previous: TermForms = new Map();
  pieces.forEach((piece, index) => {
    const quote = text.slice(piece.start, piece.end);
    let shown = cleanText(quote);
    // A chunk may start or end mid-sentence; mark the cut rather than pass a fragment off as a whole sentence.
    const startsCut = index === 0 && !piece.heading && /^\p{Ll}/u.test(shown);
    const endsCut = index === pieces.length - 1 && !piece.heading && !ENDED.test(shown);
    if (startsCut) shown = `…${shown}`;
    if (endsCut) shown = `${shown}…`;
    const clean = cleanText(quote);
    const terms = contentTerms(clean);
    const termSet = new Set(terms);
    const forms = contentTermForms(clean);
    sentences.push({
      text: shown,
      quote,
      start: piece.start,
      end: piece.end,
      terms,
      termSet,
      forms,
      context: mergeForms(title, heading, previous),
      section: sections[index],
      passage,
      index,
      heading: piece.heading,
      partial: startsCut || endsCut,
      unreadable: isUnreadable(quote),
    });
    if (piece.heading) heading = forms;
    previous = forms;
  });
  return sentences;
}

/** Each piece's section: from the heading above it (or the text's start) to the next heading (or the text's end). */
function sectionsOf(pieces: readonly { start: number; heading: boolean }[], length: number): { start: number; end: number }[] {
  const sections: { start: number; end: number }[] = [];
  let start = 0;
  for (const piece of pieces) {
    if (piece.heading) start = piece.start;
    sections.push({ start, end: length });
  }
  let end = length;
  for (let i = pieces.length - 1; i >= 0; i--) {
    sections[i].end = end;
    if (pieces[i].heading) end = pieces[i].start;
  }
  return sections;
}

/** The forms of each term in any of the maps. */
export function mergeForms(...maps: TermForms[]): TermForms {
  const merged: TermForms = new Map();
  for (const map of maps) for (const [term, forms] of map) merged.set(term, new Set([...(merged.get(term) ?? []), ...forms]));
  return merged;
}

/** Sentence spans [start, end) of text[from, to). */
function splitSentences(text: string, from: number, to: number): [number, number][] {
  const paragraph = text.slice(from, to);
  const out: [number, number][] = [];
  let start = 0;
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const candidate = paragraph.slice(start, end).trim();
    // "Mr. Smith", "e.g. Paris", "J. Doe": a period after an abbreviation or an initial ends nothing.
    const lastToken = (/(\S+?)\.["'”’»)\]]*\s*$/u.exec(candidate)?.[1] ?? "").replace(/^["'“‘«(\[]+/u, "");
    if (match[0].startsWith(".") && (ABBREVIATIONS.has(lastToken.toLowerCase()) || /^\p{Lu}$/u.test(lastToken))) continue;
    if (candidate) out.push(trimmed(paragraph, start, end, from));
    start = end;
  }
  if (paragraph.slice(start).trim()) out.push(trimmed(paragraph, start, paragraph.length, from));
  return out;
}

function trimmed(text: string, start: number, end: number, offset: number): [number, number] {
  const slice = text.slice(start, end);
  const lead = slice.length - slice.trimStart().length;
  return [offset + start + lead, offset + start + slice.trimEnd().length];
}

/**
 * What a reader sees: a word broken at a line end rejoined ("Car-\nolina" →
 * "Carolina"; a soft hyphen likewise), whitespace collapsed.
 */
export function cleanText(text: string): string {
  return text
    .replace(/(\p{L})[-\u00ad][^\S\n]*\n\s*(\p{Ll})/gu, "$1$2")
    .replace(/\u00ad/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A short line without closing punctuation, on its own: "4. Security deposit", "Warranty". */
/** Text ending as a sentence (or a clause, or a quote) does: what comes after it starts anew. */
const ENDED = /[.!?…。！？:;"'”’»)\]]$/u;

/** Whether `line` (absent at the passage's end) opens in lower case: it goes on with a sentence begun above it. */
function startsLower(text: string, line: { start: number; end: number } | undefined): boolean {
  return line !== undefined && line.end > line.start && /^\p{Ll}/u.test(text[line.start]);
}

/** Whether the text ending at `end`, on line `at`, has its sentence go on in the next non-blank line. */
function runsOn(text: string, end: number, lines: readonly { start: number; end: number }[], at: number): boolean {
  if (ENDED.test(text.slice(Math.max(0, end - 1), end))) return false;
  let next = at + 1;
  while (next < lines.length && lines[next].end <= lines[next].start) next++;
  return startsLower(text, lines[next]);
}

function isHeading(line: string): boolean {
  return line.split(/\s+/).length <= 10 && !/[.!?…,;。！？]$/.test(line);
}

/**
 * Running headers and footers a PDF repeats on every page: a page number with
 * a short title ("50 FREE CULTURE", "“PIRACY” 49"), a bare page number, a
 * lone link. They label the page; they never answer anything.
 */
function isRunningHeader(line: string): boolean {
  const t = line.trim();
  if (/^(?:page\s+)?\d{1,4}$/i.test(t)) return true;
  if (/^<?(?:https?:\/\/|www\.)\S+>?$/i.test(t)) return true;
  const letters = t.replace(/[^\p{L}]/gu, "");
  return t.split(/\s+/).length <= 8 && /^\d{1,4}\s|\s\d{1,4}$/.test(t) && letters.length > 0 && letters === letters.toUpperCase();
}

/**
 * Text that is not readable language: control characters or replacement
 * glyphs (a font without a usable text mapping), or letter soup where few
 * tokens look like words (no vowel, or single letters spaced out).
 */
export function isUnreadable(text: string): boolean {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffd]/.test(text)) return true;
  const visible = text.replace(/\s+/g, "");
  if (visible.length === 0) return true;
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  if (letters / visible.length < 0.5) return true;
  const tokens = text.match(/\p{L}+/gu) ?? [];
  if (tokens.length < 3) return false;
  const latin = tokens.filter((t) => /^\p{Script=Latin}+$/u.test(t));
  if (latin.length < tokens.length / 2) return false; // other scripts: no vowel test
  const wordLike = latin.filter((t) => t.length > 1 && /[aeiouyàâäéèêëíîïóôöúûü]/i.test(t)).length;
  return wordLike / latin.length < 0.6;
}

/** Overlapping chunks repeat sentences: keep the first (best-ranked) copy, and drop fragments of a sentence kept whole. */
export function dedupe(sentences: Sentence[]): Sentence[] {
  const seen = new Set<string>();
  const unique: { sentence: Sentence; key: string }[] = [];
  for (const sentence of sentences) {
    const key = foldDiacritics(sentence.text.replace(/…/g, "")).replace(/\s+/g, " ").trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    unique.push({ sentence, key });
  }
  const wholeKeys = unique.filter((u) => !u.sentence.partial).map((u) => u.key);
  return unique
    .filter((u) => !u.sentence.partial || !wholeKeys.some((k) => k !== u.key && k.includes(u.key)))
    .map((u) => u.sentence);
}
