import { IconButton } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { memo, useEffect, useId, useMemo, useState } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { useToast } from "#app/components/toast";
import { CheckIcon, ChevronUpIcon, CopyIcon, FullscreenIcon, WrapIcon } from "#app/components/icons";
import { copyText } from "./clipboard";

/**
 * Answers and document quotes are untrusted (ARCHITECTURE §8): markdown only,
 * raw HTML dropped, links limited to http(s), mailto and relative addresses,
 * images only from this site, diagrams drawn by mermaid in strict mode and
 * shown as an <img> (an SVG there cannot run scripts).
 */

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** Allowed: http(s), mailto and relative URLs; anything else (javascript:, data:, vbscript:, file:…) becomes "". */
export function safeUrl(url: string): string {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  const compact = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  const match = SCHEME.exec(compact);
  if (!match) return compact.startsWith("//") ? "" : url.trim();
  const scheme = match[1].toLowerCase();
  return scheme === "http" || scheme === "https" || scheme === "mailto" ? url.trim() : "";
}

function isSameOriginImage(src: string): boolean {
  if (!src) return false;
  if (src.startsWith("/") && !src.startsWith("//")) return true;
  if (typeof window === "undefined") return false;
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

type HastNode = { type: string; value?: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[] };
const textOf = (node: HastNode | undefined): string => (!node ? "" : node.type === "text" ? (node.value ?? "") : (node.children ?? []).map(textOf).join(""));

function MarkdownView({ text, final }: { text: string; final: boolean }) {
  const components = useMemo<Components>(
    () => ({
      a: ({ href, children }) =>
        href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow">
            {children}
          </a>
        ) : (
          <span className="dc-chat-md__deadlink">{children}</span>
        ),
      img: ({ src, alt }) => {
        const url = typeof src === "string" ? src : "";
        if (isSameOriginImage(url)) return <img src={url} alt={alt ?? ""} loading="lazy" className="dc-chat-md__img" />;
        // Foreign images would leak the reader's address: show a link instead.
        return url ? (
          <a href={url} target="_blank" rel="noopener noreferrer nofollow">
            {alt || url}
          </a>
        ) : (
          <span>{alt}</span>
        );
      },
      pre: ({ node }) => {
        const code = (node as unknown as HastNode | undefined)?.children?.find((c) => c.type === "element" && c.tagName === "code");
        const classes = code?.properties?.className;
        const className = Array.isArray(classes) ? classes.join(" ") : typeof classes === "string" ? classes : "";
        const language = /language-([\w#+.-]+)/.exec(className)?.[1] ?? "";
        return <CodeBlock language={language} code={textOf(code).replace(/\n$/, "")} final={final} />;
      },
      table: ({ children }) => (
        <div className="dc-chat-md__table">
          <table>{children}</table>
        </div>
      ),
    }),
    [final],
  );
  return (
    <div className="dc-chat-md">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={(url) => safeUrl(url)} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
export const SafeMarkdown = memo(MarkdownView);

function CodeBlock({ language, code, final }: { language: string; code: string; final: boolean }) {
  const toast = useToast();
  const [expanded, setExpanded] = useState(true);
  const [wrap, setWrap] = useState(false);
  const [copied, setCopied] = useState(false);
  const isMermaid = language.toLowerCase() === "mermaid";
  const [view, setView] = useState<"diagram" | "source">(isMermaid ? "diagram" : "source");
  const bodyId = useId();

  const copy = async () => {
    const ok = await copyText(code);
    toast.push(ok ? { type: "success", message: "Text copied to clipboard" } : { type: "error", message: "No text copied" });
    if (ok) {
      setCopied(true);
      window.setTimeout(() => setCopied(false), 1500);
    }
  };

  return (
    <div className="dc-chat-code" data-testid="code-block">
      <div className="dc-chat-code__bar">
        <span className="dc-chat-code__lang">{language || "text"}</span>
        {isMermaid ? (
          <div className="dc-chat-code__switch" role="group" aria-label="Diagram view">
            <button type="button" aria-pressed={view === "diagram"} onClick={() => setView("diagram")}>
              Diagram
            </button>
            <button type="button" aria-pressed={view === "source"} onClick={() => setView("source")}>
              Source
            </button>
          </div>
        ) : null}
        <span className="dc-chat-code__spacer" />
        <Tooltip content={wrap ? "Do not wrap lines" : "Wrap lines"}>
          <IconButton size="1" variant={wrap ? "soft" : "ghost"} color="gray" aria-pressed={wrap} aria-label="Wrap lines" onClick={() => setWrap((w) => !w)}>
            <WrapIcon size={14} />
          </IconButton>
        </Tooltip>
        <Tooltip content={expanded ? "Collapse" : "Expand"}>
          <IconButton size="1" variant="ghost" color="gray" aria-expanded={expanded} aria-controls={bodyId} aria-label={expanded ? "Collapse code" : "Expand code"} onClick={() => setExpanded((e) => !e)}>
            {expanded ? <ChevronUpIcon size={14} /> : <FullscreenIcon size={14} />}
          </IconButton>
        </Tooltip>
        <Tooltip content={copied ? "Copied" : "Copy code"}>
          <IconButton size="1" variant="ghost" color="gray" aria-label="Copy code" onClick={copy}>
            {copied ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
          </IconButton>
        </Tooltip>
      </div>
      <div id={bodyId} hidden={!expanded} className="dc-chat-code__body">
        {isMermaid && view === "diagram" ? (
          final ? (
            <MermaidDiagram source={code} onFail={() => setView("source")} />
          ) : (
            <p className="dc-chat-code__note">The diagram is drawn when the answer is complete.</p>
          )
        ) : (
          <pre className={wrap ? "is-wrapped" : undefined} tabIndex={0} aria-label={`${language || "Code"} source`}>
            <code>{code}</code>
          </pre>
        )}
      </div>
    </div>
  );
}

let mermaidSeq = 0;

function MermaidDiagram({ source, onFail }: { source: string; onFail: () => void }) {
  const [state, setState] = useState<{ src: string; width?: number } | { error: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const mermaid = (await import("mermaid")).default;
        mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "neutral", flowchart: { htmlLabels: false }, fontFamily: "system-ui, sans-serif" });
        await mermaid.parse(source);
        const { svg } = await mermaid.render(`dc-mermaid-${++mermaidSeq}`, source);
        // Mermaid sizes the SVG to 100 %: give the <img> the drawing's natural width instead (CSS caps it to the column).
        const viewBox = /viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/.exec(svg);
        const width = viewBox ? Math.round(Number(viewBox[1])) : undefined;
        if (!cancelled) setState({ src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, width });
      } catch (error) {
        if (!cancelled) setState({ error: error instanceof Error ? error.message : "The diagram could not be drawn." });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [source]);
  if (!state) return <p className="dc-chat-code__note">Drawing the diagram…</p>;
  if ("error" in state) {
    return (
      <div className="dc-chat-code__fallback" data-testid="mermaid-fallback">
        <p className="dc-chat-code__note" role="status">
          The diagram could not be drawn, so its source is shown.{" "}
          <button type="button" className="dc-chat-linkbtn" onClick={onFail}>
            Show source only
          </button>
        </p>
        <pre tabIndex={0} aria-label="Diagram source">
          <code>{source}</code>
        </pre>
      </div>
    );
  }
  return (
    <div className="dc-chat-diagram" data-testid="mermaid-diagram">
      <img src={state.src} width={state.width} alt="Diagram drawn from the answer's mermaid source" />
    </div>
  );
}
