import type { SourceLink } from "./resume";
import type { OutlineEntry, ResumeOutline, Sourced } from "./resume-outline";

/**
 * The resume template (docs/decisions/132): the one-column layout of the
 * widely used "Jake's Resume" (MIT), written out here with its well-known
 * macros — \resumeSubheading, \resumeItem and the \resumeSubHeadingListStart /
 * \resumeItemListStart list markers the spec's Retry hint names. Standard
 * TeX Live packages only (Debian's texlive-latex-extra at most).
 */
const RESUME_PREAMBLE = String.raw`\documentclass[letterpaper,11pt]{article}
\usepackage{latexsym}
\usepackage[empty]{fullpage}
\usepackage{titlesec}
\usepackage[usenames,dvipsnames]{color}
\usepackage{enumitem}
\usepackage[hidelinks]{hyperref}
\usepackage{fancyhdr}
\usepackage[english]{babel}
\usepackage{tabularx}
\input{glyphtounicode}

\pagestyle{fancy}
\fancyhf{}
\renewcommand{\headrulewidth}{0pt}
\renewcommand{\footrulewidth}{0pt}
\addtolength{\oddsidemargin}{-0.5in}
\addtolength{\evensidemargin}{-0.5in}
\addtolength{\textwidth}{1in}
\addtolength{\topmargin}{-.5in}
\addtolength{\textheight}{1.0in}
\urlstyle{same}
\raggedbottom
\raggedright
\setlength{\tabcolsep}{0in}
\titleformat{\section}{\vspace{-4pt}\scshape\raggedright\large}{}{0em}{}[\color{black}\titlerule \vspace{-5pt}]
\pdfgentounicode=1

\newcommand{\resumeItem}[1]{\item\small{{#1 \vspace{-2pt}}}}
\newcommand{\resumeSubheading}[4]{
  \vspace{-2pt}\item
    \begin{tabular*}{0.97\textwidth}[t]{l@{\extracolsep{\fill}}r}
      \textbf{#1} & #2 \\
      \textit{\small#3} & \textit{\small #4} \\
    \end{tabular*}\vspace{-7pt}
}
\newcommand{\resumeProjectHeading}[2]{
    \item
    \begin{tabular*}{0.97\textwidth}{l@{\extracolsep{\fill}}r}
      \small#1 & #2 \\
    \end{tabular*}\vspace{-7pt}
}
\renewcommand\labelitemii{$\vcenter{\hbox{\tiny$\bullet$}}$}
\newcommand{\resumeSubHeadingListStart}{\begin{itemize}[leftmargin=0.15in, label={}]}
\newcommand{\resumeSubHeadingListEnd}{\end{itemize}}
\newcommand{\resumeItemListStart}{\begin{itemize}}
\newcommand{\resumeItemListEnd}{\end{itemize}\vspace{-5pt}}
`;

const SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};

/** Plain text as LaTeX text: every special character escaped. */
export function escapeLatex(text: string): string {
  return text.replace(/[\\&%$#_{}~^]/g, (c) => SPECIALS[c]!);
}

/** Builds the document line by line so each drafted line can name its source passage. */
class LatexWriter {
  private readonly lines: string[] = [];
  readonly sources: SourceLink[] = [];

  line(text: string, from?: Sourced | null) {
    for (const part of text.split("\n")) this.lines.push(part);
    if (from) this.sources.push({ line: this.lines.length, ...from.source });
  }

  toString() {
    return `${this.lines.join("\n")}\n`;
  }
}

const esc = (s: Sourced | null | undefined) => (s ? escapeLatex(s.text) : "");

function entries(out: LatexWriter, title: string, list: OutlineEntry[], project = false) {
  if (list.length === 0) return;
  out.line(`\\section{${title}}`);
  out.line("  \\resumeSubHeadingListStart");
  for (const entry of list) {
    if (project) {
      const name = [esc(entry.title), esc(entry.organisation)].filter(Boolean);
      out.line(`    \\resumeProjectHeading{\\textbf{${name[0] ?? ""}}${name[1] ? ` $|$ \\emph{${name[1]}}` : ""}}{${escapeLatex(entry.dates)}}`, entry.title);
    } else {
      out.line(`    \\resumeSubheading{${esc(entry.organisation ?? entry.title)}}{${escapeLatex(entry.location)}}{${entry.organisation ? esc(entry.title) : ""}}{${escapeLatex(entry.dates)}}`, entry.organisation ?? entry.title);
    }
    if (entry.bullets.length > 0) {
      out.line("      \\resumeItemListStart");
      for (const bullet of entry.bullets) out.line(`        \\resumeItem{${esc(bullet)}}`, bullet);
      out.line("      \\resumeItemListEnd");
    }
  }
  out.line("  \\resumeSubHeadingListEnd");
  out.line("");
}

/** The drafted resume: the template filled with what the outline found, and where each line came from. */
export function renderResume(outline: ResumeOutline, fallbackName: string): { latex: string; sources: SourceLink[] } {
  const out = new LatexWriter();
  out.line(RESUME_PREAMBLE);
  out.line("\\begin{document}");
  out.line("");
  const contact = outline.contact;
  const parts = [
    contact.phone ? escapeLatex(contact.phone) : null,
    contact.email ? `\\href{mailto:${escapeUrl(contact.email)}}{\\underline{${escapeLatex(contact.email)}}}` : null,
    ...contact.links.map((link) => `\\href{${escapeUrl(link.startsWith("http") ? link : `https://${link}`)}}{\\underline{${escapeLatex(link.replace(/^https?:\/\/(www\.)?/, ""))}}}`),
    contact.location ? escapeLatex(contact.location) : null,
  ].filter(Boolean);
  out.line("\\begin{center}");
  out.line(`  \\textbf{\\Huge \\scshape ${outline.name ? esc(outline.name) : escapeLatex(fallbackName)}} \\\\ \\vspace{1pt}`, outline.name);
  if (parts.length > 0) {
    out.line(`  \\small ${parts.join(" $|$ ")}`, contact.source ? { text: "", source: contact.source } : null);
  }
  out.line("\\end{center}");
  out.line("");
  if (outline.summary.length > 0) {
    out.line("\\section{Summary}");
    for (const line of outline.summary) out.line(`\\small{${esc(line)}}`, line);
    out.line("");
  }
  entries(out, "Experience", outline.experience);
  entries(out, "Education", outline.education);
  entries(out, "Projects", outline.projects, true);
  if (outline.skills.length > 0) {
    out.line("\\section{Skills}");
    out.line(" \\begin{itemize}[leftmargin=0.15in, label={}]");
    out.line("    \\small{\\item{");
    outline.skills.forEach((skill, i) => out.line(`     ${esc(skill)}${i < outline.skills.length - 1 ? " \\\\" : ""}`, skill));
    out.line("    }}");
    out.line(" \\end{itemize}");
    out.line("");
  }
  out.line("\\end{document}");
  return { latex: out.toString(), sources: out.sources };
}

/** URLs in \href: % and # must be escaped, and a brace or backslash would break out of the argument. */
function escapeUrl(url: string): string {
  return url.replace(/[\\{}]/g, "").replace(/[%#]/g, (c) => `\\${c}`);
}
