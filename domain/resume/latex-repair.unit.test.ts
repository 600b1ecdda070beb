import { describe, expect, it } from "vitest";
import { CV_PARAGRAPHS } from "../../tests/fixtures/resume/cv";
import { repairLatex } from "./latex-repair";
import { outlineResume } from "./resume-outline";
import { renderResume } from "./resume-template";

const drafted = renderResume(outlineResume([{ documentId: "cv", pages: [{ pageNumber: 1, text: CV_PARAGRAPHS.join("\n") }] }]), "Me").latex;
const breakLine = (find: string, replace: string) => {
  expect(drafted).toContain(find);
  return drafted.replace(find, replace);
};

describe("the built-in model's LaTeX repairs", () => {
  it("leave a resume that is fine untouched", () => {
    expect(repairLatex(drafted)).toEqual({ latex: drafted, changes: [] });
  });

  it("escape & % $ # _ typed as text, but not math, comments, URLs or tables", () => {
    const broken = breakLine("payment \\& billing", "R&D, $5M budget, 40% faster, ticket #12, snake_case").replace("\\begin{document}", "\\begin{document}\n% a comment & more");
    const { latex, changes } = repairLatex(broken);
    expect(latex).toContain("R\\&D, \\$5M budget, 40\\% faster, ticket \\#12, snake\\_case");
    expect(latex).toContain("\n% a comment & more\n");
    expect(changes).toEqual(["escaped special characters in text"]);
    expect(repairLatex(drafted.replace("\\end{document}", "$x_1$ \\href{https://a.b/c_d}{c\\_d}\n\\end{document}")).changes).toEqual([]);
  });

  it("put stray \\resumeItem lines into their list", () => {
    const broken = drafted.replace("\\section{Summary}", "\\section{Summary}\n  \\resumeItem{Loose bullet}");
    const { latex, changes } = repairLatex(broken);
    expect(latex).toContain("\\resumeItemListStart\n  \\resumeItem{Loose bullet}\n\\resumeItemListEnd");
    expect(changes).toEqual(["put list items that stood outside a list into one"]);
  });

  it("close an environment left open and drop an \\end without its \\begin", () => {
    const open = repairLatex(drafted.replace("\\end{center}", ""));
    expect(open.latex).toMatch(/\\end\{center\}\\end\{document\}|\\end\{center\}\n\\end\{document\}/);
    const orphan = repairLatex(drafted.replace("\\section{Skills}", "\\end{itemize}\\section{Skills}"));
    expect(orphan.latex).toBe(drafted);
  });

  it("balance braces: a missing } is closed on its line, an extra } is dropped", () => {
    const missing = breakLine("\\resumeItem{Built the checkout's tax engine for 14 EU countries.}", "\\resumeItem{Built the checkout's tax engine for 14 EU countries.");
    expect(repairLatex(missing).latex).toBe(drafted);
    const extra = breakLine("\\section{Education}", "\\section{Education}}");
    expect(repairLatex(extra).latex).toBe(drafted);
  });
});
