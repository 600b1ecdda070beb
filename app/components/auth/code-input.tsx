import { Text } from "@radix-ui/themes";
import { useRef, type ClipboardEvent, type KeyboardEvent } from "react";

export const CODE_LENGTH = 6;
export const emptyCode = () => Array.from({ length: CODE_LENGTH }, () => "");

/**
 * Six one-digit boxes (spec 000 §5): typing advances, Backspace clears and
 * moves back, pasting six digits fills them all; `flagEmpty` marks the empty
 * boxes red after a submit attempt. The joined value goes out as `name`.
 */
export function CodeInput({
  value,
  onChange,
  flagEmpty,
  name = "code",
  disabled,
  labelledBy,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  flagEmpty?: boolean;
  name?: string;
  disabled?: boolean;
  labelledBy?: string;
}) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const focus = (index: number) => {
    const el = refs.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))];
    el?.focus();
    el?.select();
  };
  const setAt = (index: number, digit: string) => {
    const next = [...value];
    next[index] = digit;
    onChange(next);
  };
  const fillFrom = (index: number, digits: string) => {
    const next = [...value];
    let i = index;
    for (const d of digits) {
      if (i >= CODE_LENGTH) break;
      next[i++] = d;
    }
    onChange(next);
    focus(Math.min(i, CODE_LENGTH - 1));
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Backspace") {
      event.preventDefault();
      if (value[index]) {
        setAt(index, "");
        focus(index - 1);
      } else if (index > 0) {
        setAt(index - 1, "");
        focus(index - 1);
      }
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      focus(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const digits = event.clipboardData.getData("text").replace(/\D/g, "").slice(0, CODE_LENGTH);
    if (!digits) return;
    event.preventDefault();
    fillFrom(digits.length === CODE_LENGTH ? 0 : index, digits);
  };

  const anyFlagged = flagEmpty && value.some((d) => d === "");
  return (
    <div className="dc-code">
      <div className="dc-code__boxes" role="group" aria-labelledby={labelledBy}>
        {value.map((digit, index) => {
          const flagged = flagEmpty && digit === "";
          return (
            <input
              key={index}
              ref={(el) => {
                refs.current[index] = el;
              }}
              className={`dc-code__box${flagged ? " dc-code__box--error" : ""}`}
              type="text"
              inputMode="numeric"
              pattern="[0-9]"
              maxLength={1}
              autoComplete={index === 0 ? "one-time-code" : "off"}
              aria-label={`Digit ${index + 1} of ${CODE_LENGTH}`}
              aria-invalid={flagged || undefined}
              disabled={disabled}
              value={digit}
              data-testid={`code-box-${index}`}
              onFocus={(e) => e.currentTarget.select()}
              onKeyDown={onKeyDown(index)}
              onPaste={onPaste(index)}
              onChange={(event) => {
                const digits = event.currentTarget.value.replace(/\D/g, "");
                if (!digits) return;
                if (digits.length > 1) fillFrom(index, digits.length === CODE_LENGTH ? digits : digits.slice(-1));
                else {
                  setAt(index, digits);
                  focus(index + 1);
                }
              }}
            />
          );
        })}
      </div>
      <input type="hidden" name={name} value={value.join("")} />
      {anyFlagged ? (
        <Text size="1" color="red" role="alert" className="dc-code__error">
          Enter all 6 digits of the code.
        </Text>
      ) : null}
    </div>
  );
}
