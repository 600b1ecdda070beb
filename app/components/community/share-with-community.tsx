import { Checkbox, Flex, RadioGroup, Select, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { useEffect, useId, useState } from "react";

type Destination = { community_id: string; community_name: string; visibility: "PUBLIC" | "PRIVATE"; role: string; status: string };

/**
 * Upload's advanced setting 'share with community' (spec 000 §3): a checkbox,
 * the destination Private or Public, then one of the communities of that kind
 * the user may contribute to. The upload attaches each new document to it once
 * the document is ACTIVE (the community context's ContributionAttacher).
 */
export function ShareWithCommunity({ value, onChange }: { value: string | null; onChange: (communityId: string | null) => void }) {
  const id = useId();
  const [enabled, setEnabled] = useState(value !== null);
  const [destination, setDestination] = useState<"private" | "public">("public");
  const [communities, setCommunities] = useState<Destination[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (!enabled || communities) return;
    fetch("/api/communities", { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(async (response) => {
        const body = (await response.json()) as { communities?: Destination[]; message?: string };
        if (!response.ok) throw new Error(body.message ?? "Could not load your communities");
        setCommunities((body.communities ?? []).filter((c) => c.status === "Active" && c.role !== "VIEWER"));
      })
      .catch((error: Error) => setLoadError(error.message));
  }, [enabled, communities]);

  const choices = (communities ?? []).filter((c) => c.visibility === (destination === "public" ? "PUBLIC" : "PRIVATE"));
  useEffect(() => {
    if (!enabled) onChange(null);
    else if (value && !choices.some((c) => c.community_id === value)) onChange(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, destination, communities]);

  return (
    <Flex direction="column" gap="2" className="dc-advanced__share">
      <Text as="label" size="2" weight="medium">
        <Flex gap="2" align="center">
          <Checkbox checked={enabled} onCheckedChange={(v) => setEnabled(v === true)} data-testid="share-with-community" />
          Share with community
        </Flex>
      </Text>
      <RadioGroup.Root disabled={!enabled} value={destination} onValueChange={(v) => setDestination(v as "private" | "public")} aria-label="Share destination" size="1">
        <Flex gap="4">
          <RadioGroup.Item value="private">Private</RadioGroup.Item>
          <RadioGroup.Item value="public">Public</RadioGroup.Item>
        </Flex>
      </RadioGroup.Root>
      {enabled ? (
        loadError ? (
          <Text size="1" color="red">
            {loadError}
          </Text>
        ) : communities === null ? (
          <Text size="1" color="gray">
            Loading your communities…
          </Text>
        ) : choices.length === 0 ? (
          <Text size="1" color="gray">
            You are not a member of any {destination} community yet. <Link to="/community/publicCommunity" className="dc-text-link">Find one to join</Link>.
          </Text>
        ) : (
          <>
            <Text size="1" id={`${id}-community`} color="gray">
              Community
            </Text>
            <Select.Root value={value ?? ""} onValueChange={(v) => onChange(v || null)}>
              <Select.Trigger aria-labelledby={`${id}-community`} placeholder="Choose a community" data-testid="share-community-select" />
              <Select.Content position="popper">
                {choices.map((c) => (
                  <Select.Item key={c.community_id} value={c.community_id}>
                    {c.community_name}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
            <Text size="1" color="gray">
              Each file joins the community once it is ready; it stays yours.
            </Text>
          </>
        )
      ) : null}
    </Flex>
  );
}
