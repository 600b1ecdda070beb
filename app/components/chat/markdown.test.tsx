import { Theme } from "@radix-ui/themes";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SafeMarkdown } from "./markdown";

describe("SafeMarkdown", () => {
  it("renders hostile markdown inertly", () => {
    const html = renderToStaticMarkup(
      <SafeMarkdown
        final
        text={[
          "<script>alert(1)</script>",
          "<img src=x onerror=alert(1)>",
          "[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.org)",
          "![pixel](https://tracker.example/p.png)",
          '<a href="javascript:alert(1)">raw</a>',
        ].join("\n\n")}
      />,
    );
    expect(html).not.toMatch(/<script|onerror|javascript:|data:text|<img/i);
    expect(html).toContain('href="https://example.org"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('href="https://tracker.example/p.png"');
  });

  it("draws code blocks with a language label and GFM tables", () => {
    const html = renderToStaticMarkup(
      <Theme>
        <SafeMarkdown final text={"```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |"} />
      </Theme>,
    );
    expect(html).toContain("dc-chat-code__lang");
    expect(html).toContain(">ts<");
    expect(html).toContain("<table>");
  });
});
