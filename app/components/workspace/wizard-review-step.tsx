import { Badge, Text } from "@radix-ui/themes";
import { FileIcon } from "#app/components/icons";
import { preferenceLabel, type ChatPreferenceValues, type PreferenceOptions } from "./chat-preferences";
import type { PickableDocument } from "./types";
import type { WorkspaceDetails } from "./wizard-details-step";

/** Step 4, Review and Launch: everything chosen, before Save and Launch. */
export function ReviewStep({
  details,
  prefs,
  modelOptions,
  pickedDocs,
}: {
  details: WorkspaceDetails;
  prefs: ChatPreferenceValues;
  modelOptions: PreferenceOptions;
  pickedDocs: PickableDocument[];
}) {
  return (
    <dl className="dc-ws-review" data-testid="review">
      <div>
        <dt>Name</dt>
        <dd>{details.name}</dd>
      </div>
      <div>
        <dt>Description</dt>
        <dd>{details.description || <Text color="gray">No description</Text>}</dd>
      </div>
      <div>
        <dt>Type</dt>
        <dd>
          <Badge variant="soft" radius="full">
            {details.type}
          </Badge>
        </dd>
      </div>
      <div>
        <dt>Chat preferences</dt>
        <dd>
          Text: {preferenceLabel("text", prefs.text, modelOptions)}
          <br />
          Image: {preferenceLabel("image", prefs.image, modelOptions)}
          <br />
          Embedding: {preferenceLabel("embedding", prefs.embedding, modelOptions)}
        </dd>
      </div>
      <div>
        <dt>Files ({pickedDocs.length})</dt>
        <dd>
          {pickedDocs.length === 0 ? (
            <Text color="red" size="2">
              No files selected. Go back to File Details and pick at least one.
            </Text>
          ) : (
            <ul className="dc-ws-review__files">
              {pickedDocs.map((d) => (
                <li key={d.id}>
                  <FileIcon size={16} />
                  <span className="dc-ws-ellipsis">{d.name}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
    </dl>
  );
}
