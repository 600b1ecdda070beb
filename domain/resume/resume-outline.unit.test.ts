import { describe, expect, it } from "vitest";
import { CV_PARAGRAPHS } from "../../tests/fixtures/resume/cv";
import { outlineResume } from "./resume-outline";
import { escapeLatex, renderResume } from "./resume-template";

const cv = [{ documentId: "cv", pages: [{ pageNumber: 1, text: CV_PARAGRAPHS.join("\n") }] }];

describe("drafting a resume from a CV's text", () => {
  it("finds the name, contact details and each section under its usual heading", () => {
    const outline = outlineResume(cv);
    expect(outline.name?.text).toBe("Maria Gonzalez");
    expect(outline.contact).toMatchObject({
      email: "maria.gonzalez@example.com",
      phone: "+49 151 2345 6789",
      links: ["linkedin.com/in/mariagonzalez"],
      location: "Berlin, Germany",
    });
    expect(outline.summary.map((s) => s.text)).toEqual([CV_PARAGRAPHS[4]]);
    expect(outline.experience.map((e) => [e.title?.text, e.organisation?.text, e.dates, e.bullets.length])).toEqual([
      ["Senior Software Engineer", "Finlytics GmbH", "Mar 2020 – Present", 2],
      ["Software Engineer", "Shopware_Labs", "2016 – 2020", 2],
    ]);
    expect(outline.education[0]).toMatchObject({ organisation: { text: "Technical University of Munich" }, dates: "2012 – 2016" });
    expect(outline.skills.map((s) => s.text)).toEqual(["Languages: TypeScript, Go, SQL, Python", "Tools: PostgreSQL, Kafka, Kubernetes, Terraform"]);
    expect(outline.projects[0]?.title?.text).toBe("ledger-lite");
  });

  it("prefers the document that reads like a CV over a job description beside it", () => {
    const job = { documentId: "job", pages: [{ pageNumber: 1, text: "Staff Engineer\nWe are hiring a staff engineer to lead our platform team." }] };
    expect(outlineResume([job, ...cv]).name?.text).toBe("Maria Gonzalez");
  });

  it("fills the template with every special character escaped, each drafted line linked to its passage", () => {
    const { latex, sources } = renderResume(outlineResume(cv), "Your Name");
    expect(latex).toContain("payment \\& billing");
    expect(latex).toContain("Shopware\\_Labs");
    expect(latex).toContain("errors by 40\\%");
    expect(latex).toContain("\\resumeSubHeadingListStart");
    const lines = latex.split("\n");
    const bullet = sources.find((s) => s.quote.startsWith("Led the migration"))!;
    expect(lines[bullet.line - 1]).toContain("\\resumeItem{Led the migration");
    expect(bullet).toMatchObject({ documentId: "cv", pageNumber: 1 });
  });

  it("drafts a template with the fallback name when no document has text", () => {
    const { latex } = renderResume(outlineResume([]), "My CV");
    expect(latex).toContain("\\scshape My CV}");
    expect(latex).toContain("\\end{document}");
  });

  it("escapes backslashes and braces so text cannot become commands", () => {
    expect(escapeLatex("\\input{/etc/passwd} 50% & $5 #1 a_b ~ ^")).toBe(
      "\\textbackslash{}input\\{/etc/passwd\\} 50\\% \\& \\$5 \\#1 a\\_b \\textasciitilde{} \\textasciicircum{}",
    );
  });
});
