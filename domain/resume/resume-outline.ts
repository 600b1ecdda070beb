/**
 * Section detection over a CV's text (docs/decisions/132): what the built-in
 * model can do offline to draft a resume. Headings are found by the words
 * people use for them ("Work Experience", "Education", "Skills", …), the
 * name and contact details in the lines above the first heading, entries by
 * their date ranges, bullets by their markers or by being sentences. Every
 * piece keeps the passage (document and page) it came from.
 */

export interface SourcePassage {
  documentId: string;
  pageNumber: number;
  quote: string;
}

export interface Sourced {
  text: string;
  source: SourcePassage;
}

export interface OutlineEntry {
  /** Role or degree. */
  title: Sourced | null;
  /** Company, school or project name. */
  organisation: Sourced | null;
  dates: string;
  location: string;
  bullets: Sourced[];
}

export interface ResumeOutline {
  name: Sourced | null;
  contact: { email: string | null; phone: string | null; links: string[]; location: string | null; source: SourcePassage | null };
  summary: Sourced[];
  experience: OutlineEntry[];
  education: OutlineEntry[];
  skills: Sourced[];
  projects: OutlineEntry[];
}

export interface SourceDocument {
  documentId: string;
  pages: { pageNumber: number; text: string }[];
}

type SectionKind = "summary" | "experience" | "education" | "skills" | "projects" | "other";

const HEADINGS: [SectionKind, RegExp][] = [
  ["summary", /^(professional |career |personal )?(summary|profile|objective|statement|about( me)?)$/],
  ["experience", /^((work|professional|relevant|employment|career) )?(experience|employment|history|work history|employment history)$/],
  ["education", /^(education|academic (background|history)|qualifications|education (and|&) (training|qualifications))$/],
  ["skills", /^((technical|key|core|professional) )?(skills|competencies|technologies|skills (and|&) (tools|technologies)|tools)$/],
  ["projects", /^((personal|selected|key|side|academic) )?projects$/],
  ["other", /^(certifications?|certificates|awards?( and honou?rs)?|honou?rs|languages|interests|hobbies|publications|volunteer(ing)?( experience)?|references|activities|achievements|courses)$/],
];

const MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const DATE = `(?:(?:${MONTH}\\s+)?\\d{4}|\\d{1,2}/\\d{4})`;
const DATE_RANGE = new RegExp(`(${DATE})\\s*(?:-|–|—|to|until)\\s*(${DATE}|present|current|now|today)|\\b(${MONTH}\\s+)?(19|20)\\d{2}\\b`, "i");
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]?\d{2,4}){2,4}/;
const LINK = /\b(?:https?:\/\/)?(?:www\.)?(?:linkedin\.com|github\.com|gitlab\.com)\/[^\s,;|]+|https?:\/\/[^\s,;|]+/gi;
const BULLET = /^\s*(?:[•◦▪▫■□●○‣⁃∙·*\-–—]|\d+[.)])\s+/;

interface Line {
  text: string;
  bullet: boolean;
  source: SourcePassage;
}

function headingKind(line: string): SectionKind | null {
  const key = line
    .trim()
    .replace(/[:：]$/, "")
    .toLowerCase()
    .replace(/\s+/g, " ");
  if (key.length > 40) return null;
  for (const [kind, pattern] of HEADINGS) if (pattern.test(key)) return kind;
  return null;
}

function linesOf(document: SourceDocument): Line[] {
  const lines: Line[] = [];
  for (const page of document.pages) {
    for (const raw of page.text.split(/\r?\n/)) {
      const trimmed = raw.replace(/\s+/g, " ").trim();
      if (!trimmed) continue;
      const bullet = BULLET.test(trimmed);
      const text = trimmed.replace(BULLET, "").trim();
      if (text) lines.push({ text, bullet, source: { documentId: document.documentId, pageNumber: page.pageNumber, quote: trimmed.slice(0, 300) } });
    }
  }
  return lines;
}

const sourced = (line: Line, text = line.text): Sourced => ({ text, source: line.source });
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const looksLikeSentence = (text: string) => wordCount(text) >= 7 || /[.;]$/.test(text);

/** A person's name: 2 to 4 capitalised words, no digits or @. */
function looksLikeName(text: string): boolean {
  if (/[\d@/|:]/.test(text) || headingKind(text)) return false;
  const words = text.split(/\s+/);
  return words.length >= 2 && words.length <= 4 && words.every((w) => /^[\p{Lu}][\p{L}'.-]*$/u.test(w));
}

/** "Senior Engineer, Acme Corp | Berlin | 2019 – Present" into its parts. */
function entryHeader(line: Line): Pick<OutlineEntry, "title" | "organisation" | "dates" | "location"> {
  const range = DATE_RANGE.exec(line.text);
  const dates = range ? range[0].trim() : "";
  const rest = (range ? line.text.replace(range[0], " ") : line.text).replace(/[()]/g, " ").replace(/\s+/g, " ").trim();
  const parts = rest
    .split(/\s+(?:at|@)\s+|\s*[|,•·]\s*|\s+[-–—]\s+/)
    .map((p) => p.trim())
    .filter((p) => p && !/^[-–—]$/.test(p));
  const [first, second, ...others] = parts;
  return {
    title: first ? sourced(line, first) : null,
    organisation: second ? sourced(line, second) : null,
    dates,
    location: others.join(", "),
  };
}

function entriesOf(lines: Line[]): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  let current: OutlineEntry | null = null;
  for (const line of lines) {
    const isBullet = line.bullet || (current !== null && looksLikeSentence(line.text) && !DATE_RANGE.test(line.text));
    if (isBullet && current) {
      current.bullets.push(sourced(line));
      continue;
    }
    if (isBullet && !current) {
      current = { title: null, organisation: null, dates: "", location: "", bullets: [sourced(line)] };
      entries.push(current);
      continue;
    }
    const header = entryHeader(line);
    // A second header line right after the first (the company under the role, or the dates alone) completes it.
    if (current && current.bullets.length === 0 && (!current.organisation || !current.dates)) {
      if (!current.dates && header.dates) current.dates = header.dates;
      if (!current.organisation && header.title) current.organisation = header.title;
      else if (header.title && !current.location) current.location = header.title.text;
      continue;
    }
    current = { ...header, bullets: [] };
    entries.push(current);
  }
  return entries;
}

/** Skills lines split on commas, semicolons and bullets ("Languages: TypeScript, Go" stays one line). */
function skillsOf(lines: Line[]): Sourced[] {
  return lines.map((line) => sourced(line, line.text.replace(/\s*[•·|]\s*/g, ", ")));
}

/** The document that reads most like a CV: the most section headings (then the most text). */
function cvFirst(documents: SourceDocument[]): SourceDocument[] {
  const score = (d: SourceDocument) => linesOf(d).filter((l) => headingKind(l.text)).length;
  return [...documents].sort((a, b) => score(b) - score(a));
}

export function outlineResume(documents: SourceDocument[]): ResumeOutline {
  const outline: ResumeOutline = {
    name: null,
    contact: { email: null, phone: null, links: [], location: null, source: null },
    summary: [],
    experience: [],
    education: [],
    skills: [],
    projects: [],
  };
  const [cv] = cvFirst(documents);
  if (!cv) return outline;
  const lines = linesOf(cv);
  const sections = new Map<SectionKind, Line[]>();
  const top: Line[] = [];
  let kind: SectionKind | "top" = "top";
  for (const line of lines) {
    const heading = headingKind(line.text);
    if (heading) {
      kind = heading;
      if (!sections.has(heading)) sections.set(heading, []);
      continue;
    }
    if (kind === "top") top.push(line);
    else sections.get(kind)!.push(line);
  }

  const nameLine = top.find((l) => looksLikeName(l.text));
  if (nameLine) outline.name = sourced(nameLine);
  for (const line of top) {
    if (line === nameLine) continue;
    const email = EMAIL.exec(line.text)?.[0];
    const links = line.text.match(LINK) ?? [];
    const withoutOthers = line.text.replace(EMAIL, " ").replace(LINK, " ");
    const phone = PHONE.exec(withoutOthers)?.[0];
    if (email && !outline.contact.email) outline.contact.email = email;
    if (phone && !outline.contact.phone && phone.replace(/\D/g, "").length >= 7) outline.contact.phone = phone.trim();
    for (const link of links) if (!outline.contact.links.includes(link)) outline.contact.links.push(link);
    if (email || phone || links.length) outline.contact.source ??= line.source;
    else if (!outline.contact.location && wordCount(line.text) <= 5 && /,/.test(line.text) && !looksLikeSentence(line.text)) outline.contact.location = line.text;
    else if (looksLikeSentence(line.text) && !sections.has("summary")) outline.summary.push(sourced(line));
  }
  outline.summary.push(...(sections.get("summary") ?? []).map((l) => sourced(l)));
  outline.experience = entriesOf(sections.get("experience") ?? []);
  outline.education = entriesOf(sections.get("education") ?? []);
  outline.projects = entriesOf(sections.get("projects") ?? []);
  outline.skills = skillsOf(sections.get("skills") ?? []);
  return outline;
}
