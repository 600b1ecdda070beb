import { describe, expect, it } from "vitest";
import { layoutPage } from "#infrastructure/extraction/layout";
import { fragment } from "#infrastructure/extraction/test-support/fragments";

describe("page layout", () => {
  it("reads a full-width title, then the left column, then the right column", () => {
    const fragments = [
      fragment("A title across the page", 50, 40, 20),
      // Content-stream order interleaves the columns line by line, as some writers do.
      fragment("the left column starts here and", 50, 100), fragment("the right column has sentences", 320, 100),
      fragment("goes on with its own words", 50, 113), fragment("of its own that go on below", 320, 113),
      fragment("ending the left column at last", 50, 126), fragment("and the right column ends too", 320, 126),
      fragment("a footer line that runs right across the page bottom, both columns", 50, 780),
    ];
    const { text, blocks } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toBe(
      "A title across the page\n\n" +
        "the left column starts here and\ngoes on with its own words\nending the left column at last\n\n" +
        "the right column has sentences\nof its own that go on below\nand the right column ends too\n\n" +
        "a footer line that runs right across the page bottom, both columns",
    );
    expect(blocks.map((b) => b.id)).toEqual(["p1-b1", "p1-b2", "p1-b3", "p1-b4"]);
    // 600 × 800 display units scale to 596 × 842.
    expect(blocks[1].box).toEqual({ left: 49.67, top: 105.25, width: 153.97, height: 37.89 });
  });

  it("reads a last page's left column on under a blank, before the right column that ended higher", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      // A line across the top (a running head, a title): no cut runs down the whole page.
      fragment("Conference acronym, June 2018, Woodstock, NY — Trovato et al.", 50, 30),
      // The right column is short: it ended higher than the left one's references.
      ...[0, 1, 2].flatMap((n) => [fragment(prose("left", n), 50, 60 + n * 13), fragment(prose("right", n), 320, 60 + n * 13)]),
      ...[3, 4, 5].map((n) => fragment(prose("left", n), 50, 60 + n * 13)),
      // The references end; the appendix opens lower in the same column, beside empty page, a blank
      // taller than the gutter is wide.
      fragment("A RESEARCH METHODS", 50, 230),
      fragment("The methods we used are set out below, as", 50, 243),
      fragment("and the appendix goes on down its column.", 50, 256),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text.indexOf("A RESEARCH METHODS")).toBeGreaterThan(text.indexOf(prose("left", 5)));
    expect(text.indexOf("and the appendix goes on down")).toBeLessThan(text.indexOf(prose("right", 0)));
  });

  it("reads each author of a paper's author grid as one stack, between the title and the columns", () => {
    const authors = [
      ["Ben Trovato", "Institute for Clarity", "Dublin, Ohio"],
      ["Lars Thørväld", "The Thørväld Group", "Hekla, Iceland"],
      ["Aparna Patel", "Rajiv Gandhi University", "Doimukh, India"],
    ];
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      fragment("The Name of the Title", 150, 30, 20),
      ...authors.flatMap((lines, a) => lines.map((line, i) => fragment(line, 60 + a * 190, 70 + i * 12))),
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 140 + n * 13), fragment(prose("right", n), 320, 140 + n * 13)]),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toContain("Ben Trovato\nInstitute for Clarity\nDublin, Ohio");
    expect(text).toContain("Lars Thørväld\nThe Thørväld Group\nHekla, Iceland");
    expect(text).not.toContain(" | ");
    expect(text.indexOf("Aparna Patel")).toBeLessThan(text.indexOf(prose("left", 0)));
  });

  it("keeps a column's footnotes apart from the other column's lines beside them, under a gap across the page", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 100 + n * 13), fragment(prose("right", n), 320, 100 + n * 13)]),
      // A heading's space in the right column lines up with the rule above the left one's footnotes.
      fragment("1. Citations", 400, 178),
      // The footnote's mark sits on the heading's band, its text just below.
      fragment("*", 50, 180, 6), fragment("A footnote to the article title", 56, 184, 8),
      fragment("Also at Physics Department, XYZ University.", 56, 194, 8),
      fragment("Second.Author@institution.edu", 56, 204, 8), fragment("Because the package of Patrick", 320, 204),
      fragment("http://www.second.edu/Charlie", 56, 214, 8), fragment("Daly, the entire repertoire of it", 320, 216),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toContain("Second.Author@institution.edu\nhttp://www.second.edu/Charlie");
    expect(text).toContain("Because the package of Patrick\nDaly, the entire repertoire of it");
  });

  it("reads the headings that open both columns, each in its own column, when the left one runs on a second line", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      fragment("An abstract that runs right across the page over both of the columns below", 50, 40),
      // Centred headings on one baseline; the left one's second line is long enough to pass for prose.
      fragment("I. FIRST HEADING:", 90, 80), fragment("A. Second heading", 380, 80),
      fragment("THE LINE BREAK WAS FORCED here", 70, 93),
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 110 + n * 13), fragment(prose("right", n), 320, 110 + n * 13)]),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text).not.toContain("I. FIRST HEADING: A. Second heading");
    expect(text.indexOf("A. Second heading")).toBeGreaterThan(text.indexOf(prose("left", 3)));
    expect(text.indexOf("A. Second heading")).toBeLessThan(text.indexOf(prose("right", 0)));
  });

  it("keeps an author grid a little above the columns out of them, though its gap lines up with the gutter", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      fragment("The Name of the Title", 150, 30, 20),
      fragment("Mireille Osei", 110, 65), fragment("Priya Raghunathan", 360, 65),
      fragment("Harbourline Labs", 100, 78), fragment("Harbourline Systems", 350, 78),
      // Under the grid a blank of nearly two lines, then the left column's heading beside the right column's first line.
      fragment("Abstract", 50, 110, 12), fragment(prose("right", 0), 320, 111),
      ...[1, 2, 3, 4].flatMap((n) => [fragment(prose("left", n), 50, 111 + n * 13), fragment(prose("right", n), 320, 111 + n * 13)]),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text.indexOf("Priya Raghunathan")).toBeLessThan(text.indexOf("Abstract"));
  });

  it("reads a left column's footnotes before the right column, when a heading's space in the right column lines up with the rule above them", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      fragment("An abstract that runs right across the page over both of the columns below", 50, 40),
      ...[0, 1, 2, 3, 4].flatMap((n) => [fragment(prose("left", n), 50, 70 + n * 13), fragment(prose("right", n), 320, 70 + n * 13)]),
      fragment(prose("right", 5), 320, 135),
      // Two and a half lines of empty page across both columns, wider than the space under the abstract.
      fragment("1. Citations", 400, 170), fragment("* A footnote to the article title", 50, 174, 8),
      fragment("Second.Author@institution.edu", 56, 184, 8), fragment("Because the package of Patrick", 320, 190),
      fragment("http://www.second.edu/Charlie", 56, 194, 8), fragment("Daly, the entire repertoire of it", 320, 203),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text.indexOf("* A footnote")).toBeGreaterThan(text.indexOf(prose("left", 4)));
    expect(text.indexOf("http://www.second.edu/Charlie")).toBeLessThan(text.indexOf(prose("right", 0)));
    expect(text).toContain(`${prose("right", 5)}\n\n1. Citations\n\nBecause the package of Patrick`);
  });

  it("reads a wide equation between two columns' spaces as a part across the page, though its operators' gap lines up with the gutter", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 70 + n * 13), fragment(prose("right", n), 320, 70 + n * 13)]),
      // Three lines of space above and below the equation, which runs into the gutter from both sides.
      fragment("R(d)=geσ2[ΓZ(3,21)]σ1Q2/(Q2−M2W)", 130, 152), fragment("+xWQe[Γγ(3,21)]σ1Q2/(Q2−M2W).(7)", 312, 152),
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("lower left", n), 50, 192 + n * 13), fragment(prose("lower right", n), 320, 192 + n * 13)]),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    const order = [prose("left", 3), prose("right", 0), "R(d)=geσ2[ΓZ(3,21)]σ1Q2/(Q2−M2W) +xWQe", prose("lower left", 0), prose("lower right", 0)];
    expect(order.map((line) => text.indexOf(line))).toEqual(order.map((line) => text.indexOf(line)).sort((a, b) => a - b));
    expect(text.indexOf(order[2])).toBeGreaterThan(0);
  });

  it("reads both columns above a blank across the page before the columns that start again under it (the references)", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 70 + n * 13), fragment(prose("right", n), 320, 70 + n * 13)]),
      // Five lines' space, then the references in two columns of their own.
      fragment("[1] E. Witten, (2001), hep-th/0106109, and", 50, 170), fragment("[2] See the explanation of time travel in", 320, 170),
      fragment("references therein, and more of them", 60, 183), fragment("R. P. Feynman, Phys. Rev. 94, 262 (1954)", 330, 183),
    ];
    const { text } = layoutPage(fragments, 600, 800, "p1");
    const order = [prose("left", 3), prose("right", 0), prose("right", 3), "[1] E. Witten", "[2] See the explanation"];
    expect(order.map((line) => text.indexOf(line))).toEqual(order.map((line) => text.indexOf(line)).sort((a, b) => a - b));
  });

  it("reads a formula's row drawn as touching fragments as one line, not as prose beside a gutter", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const touching = (texts: string[], left: number, top: number) =>
      texts.map((text, i) => fragment(text, left + texts.slice(0, i).join("").length * 5, top));
    const fragments = [
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 70 + n * 13), fragment(prose("right", n), 320, 70 + n * 13)]),
      // The row, a fraction's "b ." beside it and the "A" of its denominator under the gap between them.
      ...touching(["1234567890", "abc", "123", "αβγδ", "1234556"], 60, 125), fragment("b .", 215, 125), fragment("(2)", 275, 125), fragment("A", 205, 133),
      fragment("Note the open one in Eq. (2).", 50, 139), fragment("Not all numbered equations will fit within it", 50, 170),
      // The right column's lines on baselines of their own.
      ...[4, 5, 6, 7].map((n) => fragment(prose("right", n), 320, 121 + (n - 4) * 12)),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text).toContain("\n1234567890abc123αβγδ1234556 b . (2)\n");
  });

  it("reads a page's foot line, its halves at the text's two edges under both columns, last and whole", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const fragments = [
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 70 + n * 13), fragment(prose("right", n), 320, 70 + n * 13)]),
      // Flush left and flush right with the columns' outer edges, a line and a half under them.
      fragment("Preprint submitted to Elsevier", 50, 134), fragment("June 8, 2018", 470, 134),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text.endsWith(`${prose("right", 3)}\n\nPreprint submitted to Elsevier June 8, 2018`)).toBe(true);
  });

  it("reads a table at the top of the right column as the column's, with its caption, not as rows of a plot's tick labels beside it", () => {
    const prose = (side: string, n: number) => `the ${side} column goes on with line ${n} of it`;
    const rows = [["Gauge", "Distance (km)", "Outages"], ["G1 Lock approach", "0.4", "0"], ["G2 Fish quay", "0.9", "1"], ["G4 Ferry slip", "2.3", "0"]];
    const fragments = [
      // A plot's axis label and tick labels in the left column, beside the table's caption and rows in the right one.
      fragment("level (m)", 85, 50), fragment("TABLE I", 420, 50), fragment("DELIVERY PER GAUGE", 360, 62),
      ...rows.flatMap((cells, r) => [fragment(String(4 - r), 70, 80 + r * 12), fragment(cells[0], 320, 80 + r * 12), fragment(cells[1], 430, 80 + r * 12), fragment(cells[2], 510, 80 + r * 12)]),
      fragment("0 2 4 6 8 hours", 80, 130),
      fragment("Fig. 1. The surge at gauge G4 and its readings", 50, 146),
      ...[0, 1, 2, 3].flatMap((n) => [fragment(prose("left", n), 50, 162 + n * 13), fragment(prose("right", n), 320, 162 + n * 13)]),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text).toContain(
      `${prose("left", 3)}\n\nTABLE I\nDELIVERY PER GAUGE\n\nGauge | Distance (km) | Outages\nG1 Lock approach | 0.4 | 0\nG2 Fish quay | 0.9 | 1\nG4 Ferry slip | 2.3 | 0\n\n${prose("right", 0)}`,
    );
  });

  it("reads a display fraction as its author wrote it: the left side, the numerator, then the denominator, on one line", () => {
    const fragments = [
      fragment("the rate is the change over the time between", 50, 110),
      // Drawn as TeX draws it: the left side, then the numerator above, the denominator below.
      fragment("R =", 60, 140), fragment("h1 − h3", 90, 133), fragment("t1 − t3", 90, 147), fragment("(1)", 250, 140),
      fragment("where both readings are taken by the gauge", 50, 170),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text).toBe(
      "the rate is the change over the time between\n\nR = h1 − h3 t1 − t3 (1)\n\nwhere both readings are taken by the gauge",
    );
  });

  it("reads a fraction's numerator with the row it belongs to, though an integral's box beside it sits higher than its ink", () => {
    // A big operator's glyph box is where its font puts it, well above the ink that hangs down beside the row.
    const integral = { ...fragment("∫", 90, 103), bottom: 108 };
    const fragments = [
      fragment("the energy of the interaction can be written as", 50, 80),
      fragment("An", 60, 110), integral, fragment("dx", 100, 110), fragment("F(x)", 130, 104), fragment("An + Bn", 122, 116), fragment("(5)", 270, 110),
      fragment("where we introduced the initial state of it", 50, 140),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text).toContain("\n\nAn ∫ dx F(x) An + Bn (5)\n\n");
  });

  it("reads no table in two display formulas one over the other, though their pieces line up", () => {
    // Each formula's fraction stacks its numerator and denominator on its row, closer than lines of text.
    const fragments = [1, 2].flatMap((n, row) => {
      const top = 100 + row * 22;
      return [fragment("E = m", 60, top), fragment("1", 112, top - 5), fragment("c", 112, top + 5), fragment(", for x > 0", 150, top), fragment(`(${n})`, 270, top)];
    });
    expect(layoutPage(fragments, 600, 800, "p1").text).toBe("E = m 1 c , for x > 0 (1)\nE = m 1 c , for x > 0 (2)");
  });

  it("sets numbered equations' numbers beside them, not as a table's second column", () => {
    const fragments = [["E = mc,", "(B2a)"], ["E = mc2,", "(B2b)"], ["E & mc3.", "(B2c)"]].flatMap(([equation, number], row) => [
      fragment(equation, 120, 100 + row * 14),
      fragment(number, 280, 100 + row * 14),
    ]);
    expect(layoutPage(fragments, 600, 800, "p1").text).toBe("E = mc, (B2a)\nE = mc2, (B2b)\nE & mc3. (B2c)");
  });

  it("reads no table row in a formula: its big delimiters' pieces, nor the limits over and under its sum and integral", () => {
    const prose = (n: number) => `a line of the paragraph around the formula, number ${n}`;
    // The upper pieces of two big parentheses (private-use characters) and a closing one, over the formula's main row.
    const delimiters = [fragment("\uF8EB", 100, 100), fragment("\uF8F6", 130, 100), fragment("!", 220, 100)];
    const mainRow = [fragment("× Σ i<j", 90, 109), fragment("Σ perm 1/S12S23Sn1", 150, 109)];
    // A sum and an integral, with their upper limits above the row and their lower limits below it.
    const limits = [fragment("∑∞", 100, 200), fragment("∫π+2", 140, 200), fragment("xi = f (2)", 105, 209), fragment("i=0", 100, 219, 7), fragment("0", 142, 219, 7)];
    const fragments = [fragment(prose(1), 50, 75), ...delimiters, ...mainRow, fragment(prose(2), 50, 150), ...limits, fragment(prose(3), 50, 250)];
    expect(layoutPage(fragments, 600, 800, "p1").text).not.toContain(" | ");
  });

  it("reads a justified line whose spaces a long word in the next line stretched as a line, not a table's row", () => {
    const fragments = [
      fragment("(6.77u) package.", 50, 100),
      fragment("Enclosing display", 60, 113), fragment("math within", 235, 113),
      fragment("\\begin{subequations} and", 50, 126), fragment("\\end{subequations}", 200, 126),
      fragment("will produce a set of equations that are labeled", 50, 139),
    ];
    expect(layoutPage(fragments, 600, 800, "p1").text).toBe(
      "(6.77u) package.\nEnclosing display math within\n\\begin{subequations} and \\end{subequations}\nwill produce a set of equations that are labeled",
    );
  });

  it("joins words with single spaces, drops duplicated fake-bold text, and orders right-to-left lines", () => {
    const words = [fragment("Hello", 10, 10), fragment("Hello", 10.2, 10.1), fragment("world", 40, 10)];
    expect(layoutPage(words, 600, 800, "p1").text).toBe("Hello world");
    const rtl = [
      { ...fragment("שלום", 60, 10), rtl: true },
      { ...fragment("עולם", 35, 10), rtl: true },
    ];
    expect(layoutPage(rtl, 600, 800, "p1").text).toBe("שלום עולם");
  });

  it("keeps a table's rows whole, cells joined by ' | ', and a lone wide gap as a space", () => {
    const rows = [
      ["Benchmark", "Speedup", "Compile time"],
      ["access-nbody", "4.19×", "11.8"],
      ["crypto-aes", "2.44×", "19.6"],
    ];
    const fragments = rows.flatMap((row, i) => [fragment(row[0], 60, 100 + i * 13), fragment(row[1], 200, 100 + i * 13), fragment(row[2], 300, 100 + i * 13)]);
    // A header's two halves far apart, alone on their line.
    fragments.push(fragment("Kestrel report", 60, 20), fragment("Page 2", 400, 20));
    const { text } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toBe("Kestrel report Page 2\n\nBenchmark | Speedup | Compile time\naccess-nbody | 4.19× | 11.8\ncrypto-aes | 2.44× | 19.6");
  });

  it("reads letter-spaced words as words, and ligatures as letters", () => {
    const letters = (word: string, left: number) => [...word].map((ch, i) => ({ ...fragment(ch, left + i * 9, 50), right: left + i * 9 + 5 }));
    const { text } = layoutPage([...letters("TIDAL", 60), ...letters("ENERGY", 60 + 5 * 9 + 12)], 600, 800, "p1");
    expect(text).toBe("TIDAL ENERGY");
    expect(layoutPage([fragment("the ﬁrst ﬂoor", 60, 50)], 600, 800, "p1").text).toBe("the first floor");
  });

  it("reads the pieces of a big parenthesis that the Symbol font draws as private-use characters as Unicode's", () => {
    const fragments = [fragment("\uF8EB", 60, 50), fragment("\uF8F6", 120, 50), fragment("\uF8ED a + b \uF8F8", 60, 60)];
    expect(layoutPage(fragments, 600, 800, "p1").text).toBe("⎛ ⎞\n⎝ a + b ⎠");
  });

  it("reads a page whose text runs past its right edge (a printer's barcode half off the page)", () => {
    const lines = ["The first line of the page", "and a second line below it", "and the third line ends it"];
    const fragments = [...lines.map((line, i) => fragment(line, 40, 100 + i * 13)), fragment("a barcode running off the page", 300, 560, 40)];
    expect(layoutPage(fragments, 400, 600, "p1").text).toBe(`${lines.join("\n")}\n\na barcode running off the page`);
  });
});
