import { Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { useId, type ChangeEvent } from "react";
import { InfoIcon } from "#app/components/icons";
import { LANGUAGES } from "#domain/identity/languages";

/**
 * Native controls (select, input + datalist) so the forms work without
 * JavaScript; styled to sit with Radix Themes' text fields.
 */
function Label({ htmlFor, children }: { htmlFor: string; children: React.ReactNode }) {
  return (
    <Text as="label" htmlFor={htmlFor} size="2" weight="medium" className="dc-field__label">
      {children}
    </Text>
  );
}

function ErrorText({ id, name, error }: { id: string; name: string; error?: string | null }) {
  if (!error) return null;
  return (
    <Text id={id} size="1" color="red" className="dc-field__error" role="alert" data-testid={`${name}-error`}>
      {error}
    </Text>
  );
}

export function SelectField({
  label,
  name,
  value,
  options,
  error,
  disabled,
  placeholder = "Select…",
  onChange,
  onBlur,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly string[];
  error?: string | null;
  disabled?: boolean;
  placeholder?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="dc-field">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        name={name}
        value={value}
        disabled={disabled}
        className={`dc-native-input${error ? " is-invalid" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(e.currentTarget.value)}
        onBlur={onBlur}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <ErrorText id={errorId} name={name} error={error} />
    </div>
  );
}

/** Preferred language: type to search the list (a datalist works with and without JavaScript). */
export function LanguageField({
  value,
  error,
  disabled,
  onChange,
  onBlur,
  label = "Preferred language",
}: {
  value: string;
  error?: string | null;
  disabled?: boolean;
  onChange: (value: string) => void;
  onBlur?: () => void;
  label?: string;
}) {
  const id = useId();
  const listId = `${id}-languages`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="dc-field">
      <span className="dc-field__label-row">
        <Label htmlFor={id}>{label}</Label>
        <Tooltip content="The language answers and the interface default to. You can change it later in My Account.">
          <button type="button" className="dc-info-button" aria-label="What is this setting for?">
            <InfoIcon size={14} />
          </button>
        </Tooltip>
      </span>
      <input
        id={id}
        name="language"
        list={listId}
        value={value}
        disabled={disabled}
        autoComplete="off"
        placeholder="Search languages…"
        className={`dc-native-input${error ? " is-invalid" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hintId}
        onChange={(e) => onChange(e.currentTarget.value)}
        onBlur={onBlur}
      />
      <datalist id={listId}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} />
        ))}
      </datalist>
      {error ? null : (
        <Text id={hintId} size="1" color="gray" className="dc-field__hint">
          {LANGUAGES.length} languages, Afrikaans to Zulu.
        </Text>
      )}
      <ErrorText id={errorId} name="language" error={error} />
    </div>
  );
}
