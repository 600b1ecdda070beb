import { Badge, Button, Spinner, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import { useCsrfToken } from "#app/components/use-csrf";
import { fixLatexMessage } from "#domain/resume/latex-blocks";
import { compileLatex, type CompileOutcome, RESUME_OPEN_IN_EDITOR_EVENT, svgDataUrl } from "./resume-api";

/** Retries in a row after which the chat stops offering Retry (the resume keeps its last compiled version). */
export const MAX_REPAIR_ATTEMPTS = 3;

type Props = {
  latex: string;
  /** How many Retries led to this answer (0 for an ordinary answer). */
  attempt: number;
  /** The error the answer before this one failed with, when this one answers a Retry. */
  previousError: string | null;
  onRetry: (message: string) => void;
  onCompiled: (outcome: CompileOutcome) => void;
  readOnly: boolean;
  /** Compile as soon as shown (the newest answer), or when the reader asks. */
  compileAtOnce: boolean;
};

/**
 * A chat answer's LaTeX block, compiled once the stream finished (spec 001 §2):
 * the first page as a preview, or the server's error with a 'Compile error'
 * chip and Retry. Retry stops after a few attempts or when the same error
 * comes back.
 */
export function LatexAnswer({ latex, attempt, previousError, onRetry, onCompiled, readOnly, compileAtOnce }: Props) {
  const csrfToken = useCsrfToken();
  const [outcome, setOutcome] = useState<CompileOutcome | null>(null);
  const [wanted, setWanted] = useState(compileAtOnce);

  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    compileLatex(latex, csrfToken, controller.signal).then(
      (result) => {
        if (controller.signal.aborted) return;
        setOutcome(result);
        onCompiled(result);
      },
      () => !controller.signal.aborted && setOutcome({ ok: false, error: { code: "COMPILE_FAILED", message: "The LaTeX could not be compiled.", line: null } }),
    );
    return () => controller.abort();
    // Compiled once per block; onCompiled is the panel's and may change identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [latex, csrfToken, wanted]);

  if (!wanted) {
    return (
      <div className="dc-latex-answer" data-testid="latex-answer" data-state="idle">
        <div className="dc-latex-answer__actions">
          <Button size="1" variant="soft" onClick={() => setWanted(true)} data-testid="compile-answer">
            Compile preview
          </Button>
        </div>
      </div>
    );
  }
  if (!outcome) {
    return (
      <div className="dc-latex-answer" role="status" data-testid="latex-answer" data-state="compiling">
        <Text size="2" color="gray">
          <Spinner size="1" /> Compiling the LaTeX…
        </Text>
      </div>
    );
  }
  if (outcome.ok) {
    return (
      <div className="dc-latex-answer" data-testid="latex-answer" data-state="compiled">
        <img className="dc-latex-answer__preview" src={svgDataUrl(outcome.svg)} alt="Preview of the resume in this answer" />
        <div className="dc-latex-answer__actions">
          <Button size="1" variant="soft" disabled={readOnly} onClick={() => window.dispatchEvent(new CustomEvent(RESUME_OPEN_IN_EDITOR_EVENT, { detail: latex }))} data-testid="open-in-editor">
            Open in editor
          </Button>
        </div>
      </div>
    );
  }
  const sameAgain = previousError !== null && previousError === outcome.error.message;
  const exhausted = attempt >= MAX_REPAIR_ATTEMPTS;
  return (
    <div className="dc-latex-answer" data-testid="latex-answer" data-state="error">
      <div className="dc-latex-answer__actions">
        <Badge color="red" data-testid="compile-error-chip">
          Compile error
        </Badge>
        {sameAgain || exhausted ? null : (
          <Button size="1" disabled={readOnly} onClick={() => onRetry(fixLatexMessage(outcome.error, latex))} data-testid="retry-compile">
            Retry
          </Button>
        )}
      </div>
      <Text as="p" size="2" role="alert" data-testid="latex-answer-error">
        {outcome.error.message}
        {outcome.error.line !== null ? ` (line ${outcome.error.line})` : ""}
      </Text>
      {sameAgain || exhausted ? (
        <Text as="p" size="2" color="gray" data-testid="repair-stopped">
          {sameAgain ? "The same error came back, so I stopped retrying." : `Stopped after ${attempt} attempts.`} Your resume keeps its last version that compiled.
        </Text>
      ) : null}
    </div>
  );
}
