import { Flex, RadioCards, Text, TextArea, TextField } from "@radix-ui/themes";
import type { Dispatch, SetStateAction } from "react";
import { workspaceDetailsSchema } from "#domain/workspace/workspace-rules";

export type WorkspaceDetails = { name: string; description: string; type: string };
export type DetailErrors = Partial<Record<keyof WorkspaceDetails, string>>;

const TYPE_TEXT = {
  Conversation: "Ask questions about your documents and get answers with citations.",
  "Resume Builder": "Let the AI draft and edit a LaTeX resume from your documents.",
} as const;

/** The first step's checks, with the same schema the server applies. */
export function validateDetails(details: WorkspaceDetails): DetailErrors {
  const parsed = workspaceDetailsSchema.safeParse({ ...details, type: details.type || undefined });
  if (parsed.success) return {};
  const errors: DetailErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof WorkspaceDetails;
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Step 1, Workspace Details: name, description and type. Submitting the form (Next) goes on. */
export function DetailsStep({
  details,
  setDetails,
  errors,
  setErrors,
  next,
}: {
  details: WorkspaceDetails;
  setDetails: Dispatch<SetStateAction<WorkspaceDetails>>;
  errors: DetailErrors;
  setErrors: Dispatch<SetStateAction<DetailErrors>>;
  next: () => void;
}) {
  return (
    <form
      id="details-form"
      className="dc-ws-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        next();
      }}
    >
      <div className="dc-ws-field">
        <Text as="label" htmlFor="ws-name" size="2" weight="medium">
          Workspace name <span aria-hidden="true">*</span>
        </Text>
        <TextField.Root
          id="ws-name"
          size="3"
          placeholder="e.g. Biology revision"
          value={details.name}
          onChange={(e) => {
            const name = e.currentTarget.value;
            setDetails((d) => ({ ...d, name }));
            if (errors.name) setErrors((er) => ({ ...er, name: undefined }));
          }}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? "ws-name-error" : undefined}
          aria-required
        />
        {errors.name ? (
          <Text size="1" color="red" id="ws-name-error" role="alert">
            {errors.name}
          </Text>
        ) : null}
      </div>
      <div className="dc-ws-field">
        <Text as="label" htmlFor="ws-description" size="2" weight="medium">
          Description <Text color="gray">(optional)</Text>
        </Text>
        <TextArea
          id="ws-description"
          size="3"
          rows={3}
          placeholder="What is this workspace for?"
          value={details.description}
          onChange={(e) => {
            const description = e.currentTarget.value;
            setDetails((d) => ({ ...d, description }));
          }}
        />
      </div>
      <fieldset className="dc-ws-fieldset" aria-describedby={errors.type ? "ws-type-error" : undefined}>
        <legend className="dc-ws-legend">
          Workspace type <span aria-hidden="true">*</span>
        </legend>
        <RadioCards.Root
          value={details.type}
          onValueChange={(type) => setDetails((d) => ({ ...d, type }))}
          columns={{ initial: "1", sm: "2" }}
          aria-label="Workspace type"
        >
          {(["Conversation", "Resume Builder"] as const).map((t) => (
            <RadioCards.Item key={t} value={t} className="dc-ws-type">
              <Flex direction="column" gap="1" width="100%">
                <Text weight="bold">{t}</Text>
                <Text size="2" color="gray">
                  {TYPE_TEXT[t]}
                </Text>
              </Flex>
            </RadioCards.Item>
          ))}
        </RadioCards.Root>
        {errors.type ? (
          <Text size="1" color="red" id="ws-type-error" role="alert">
            {errors.type}
          </Text>
        ) : null}
      </fieldset>
    </form>
  );
}
