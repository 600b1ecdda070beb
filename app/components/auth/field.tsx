import { IconButton, Text, TextField } from "@radix-ui/themes";
import { forwardRef, useId, useState, type ComponentProps, type ReactNode } from "react";
import { EyeIcon, EyeOffIcon } from "#app/components/icons";

type InputProps = Omit<ComponentProps<"input">, "size" | "color" | "defaultValue" | "type" | "value" | "ref"> & {
  value?: string;
  type?: "text" | "email" | "password";
};

/**
 * A labelled text input with its error underneath, wired for assistive tech
 * (label, aria-invalid, aria-describedby).
 */
type FieldProps = InputProps & { label: string; error?: string | null; hint?: ReactNode; trailing?: ReactNode };

export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, trailing, ...input }, ref) {
  const generated = useId();
  const id = input.id ?? generated;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="dc-field">
      <Text as="label" htmlFor={id} size="2" weight="medium" className="dc-field__label">
        {label}
      </Text>
      <TextField.Root
        {...input}
        ref={ref}
        id={id}
        size="3"
        color={error ? "red" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="dc-field__input"
      >
        {trailing ? <TextField.Slot side="right">{trailing}</TextField.Slot> : null}
      </TextField.Root>
      {hint && !error ? (
        <Text id={hintId} size="1" color="gray" className="dc-field__hint">
          {hint}
        </Text>
      ) : null}
      {error ? (
        <Text id={errorId} size="1" color="red" className="dc-field__error" role="alert" data-testid={`${input.name}-error`}>
          {error}
        </Text>
      ) : null}
    </div>
  );
});

/** Password input with a show/hide toggle. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, "type" | "trailing">>(function PasswordField(props, ref) {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      ref={ref}
      type={visible ? "text" : "password"}
      trailing={
        <IconButton
          type="button"
          variant="ghost"
          color="gray"
          size="2"
          aria-label={visible ? "Hide password" : "Show password"}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </IconButton>
      }
    />
  );
});
