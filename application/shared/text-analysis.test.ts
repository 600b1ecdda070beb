import { describe, expect, it } from "vitest";
import { analyzeTerm, contentTermForms, contentTerms, isStopWord, words } from "./text-analysis";

describe("text analysis shared by the search index and the built-in model", () => {
  it("makes inflections and derivations of a word meet, diacritics folded", () => {
    const same = (...forms: string[]) => new Set(forms.map((f) => analyzeTerm(f.toLowerCase()))).size;
    expect(same("terminated", "terminate", "termination", "terminating")).toBe(1);
    expect(same("policies", "policy")).toBe(1);
    expect(same("payments", "payment")).toBe(1);
    expect(same("Résumé", "resume")).toBe(1);
    // A boiler is not boiling.
    expect(same("boiler", "boiling")).toBe(2);
  });

  it("tells the forms of a term apart up to inflection: an engineer is not an engine, a licence is licensed", () => {
    const forms = contentTermForms("Engineers serviced the engines; the engineer licensed the licences under a license.");
    expect(analyzeTerm("engineers")).toBe(analyzeTerm("engines"));
    expect(forms.get(analyzeTerm("engines"))).toEqual(new Set(["engineer", "engin"]));
    expect(forms.get(analyzeTerm("license"))).toEqual(new Set(["licens"]));
    expect(forms.get(analyzeTerm("licences"))).toEqual(new Set(["licenc"]));
    expect(contentTermForms("The tenant's deposit")).toEqual(new Map([[analyzeTerm("tenant"), new Set(["tenant"])], [analyzeTerm("deposit"), new Set(["deposit"])]]));
  });

  it("keeps the content words of a text, in order, as the index stores them", () => {
    expect(contentTerms("The tenant's deposit")).toEqual([analyzeTerm("tenant"), analyzeTerm("deposit")]);
    expect(contentTerms("Wait 3 months")).toEqual([analyzeTerm("wait"), "3", analyzeTerm("months")]);
  });

  it("cuts words like the index's tokenizer: letters and digits, apostrophes and punctuation split", () => {
    expect(words("Don't “quote” me—ever!")).toEqual(["don", "t", "quote", "me", "ever"]);
    expect(isStopWord("The")).toBe(true);
    expect(isStopWord("deposit")).toBe(false);
  });
});
