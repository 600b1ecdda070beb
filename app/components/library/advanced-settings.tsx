import { Flex, Select, Switch, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { Collapsible } from "radix-ui";
import { useId, useState } from "react";
import { ChevronRightIcon, SettingsIcon } from "#app/components/icons";
import { ShareWithCommunity } from "#app/components/community/share-with-community";

/** `shareWith`: the community each uploaded document joins once it is ACTIVE (null: not shared). */
export type AdvancedSettingsValue = { ocr: boolean; ragType: "" | "baseline" | "summary"; shareWith?: string | null };

/** Spec 000 §3 Advanced settings: OCR, RAG type, embedding keyset and model, share with community. */
export function AdvancedSettings({ value, onChange }: { value: AdvancedSettingsValue; onChange: (value: AdvancedSettingsValue) => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="dc-lib-card dc-advanced">
      <Collapsible.Trigger className="dc-advanced__trigger" data-testid="advanced-settings-toggle">
        <span className="dc-advanced__icon">
          <SettingsIcon size={18} />
        </span>
        <span className="dc-advanced__title">
          <Text weight="bold" size="3">
            Advanced settings
          </Text>
          <Text size="2" color="gray">
            OCR, retrieval and embedding options
          </Text>
        </span>
        <ChevronRightIcon size={18} className={`dc-advanced__chevron${open ? " is-open" : ""}`} />
      </Collapsible.Trigger>
      <Collapsible.Content className="dc-advanced__content">
        <Flex direction="column" gap="4">
          <Flex justify="between" align="center" gap="3">
            <Text as="label" htmlFor={`${id}-ocr`} size="2" weight="medium">
              OCR
              <Text as="span" size="1" color="gray" className="dc-block">
                Read text from scanned pages and images
              </Text>
            </Text>
            <Switch id={`${id}-ocr`} checked={value.ocr} onCheckedChange={(ocr) => onChange({ ...value, ocr })} />
          </Flex>

          <Flex direction="column" gap="1">
            <Text id={`${id}-rag`} size="2" weight="medium">
              RAG type
            </Text>
            <Select.Root
              value={value.ragType || "default"}
              onValueChange={(v) => onChange({ ...value, ragType: v === "default" ? "" : (v as "baseline" | "summary") })}
            >
              <Select.Trigger aria-labelledby={`${id}-rag`} />
              <Select.Content position="popper">
                <Select.Item value="default">Default</Select.Item>
                <Select.Item value="baseline">BaseLine</Select.Item>
                <Select.Item value="summary">Summary</Select.Item>
              </Select.Content>
            </Select.Root>
          </Flex>

          <Flex direction="column" gap="1">
            <Text as="p" size="2" weight="medium">
              Embedding keyset and model
            </Text>
            <Text as="p" size="2" color="gray" data-testid="embedding-note">
              Documents are embedded for semantic search with each workspace&apos;s embedding model, so one document can serve workspaces with
              different models. New workspaces start with your default (the built-in model unless you chose another):{" "}
              <Link to="/profile/chat-settings">Chat Settings</Link>.
            </Text>
          </Flex>

          <ShareWithCommunity value={value.shareWith ?? null} onChange={(shareWith) => onChange({ ...value, shareWith })} />
        </Flex>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
