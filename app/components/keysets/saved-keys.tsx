import { Card, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { useState } from "react";
import { AddKeyDialog } from "./add-key-dialog";
import { DeleteKeyDialog } from "./delete-key-dialog";
import { EditKeyDialog } from "./edit-key-dialog";
import { RevealKey } from "./reveal-key";
import type { ChatSettingsData } from "./types";

export function SavedKeys({ data, onChanged }: { data: ChatSettingsData; onChanged: (message: string) => void }) {
  const [revealing, setRevealing] = useState<string | null>(null);
  const operated = data.options.find((o) => o.operated);
  return (
    <Card size="3">
      <Flex justify="between" align="center" mb="3" wrap="wrap" gap="3">
        <Heading as="h2" size="5">
          Saved API keys
        </Heading>
        <AddKeyDialog onAdded={onChanged} />
      </Flex>
      {data.keysets.length === 0 ? (
        <Text as="p" color="gray" data-testid="no-keys">
          {/* The operator's model, where one answers, is not "the built-in model" (issue 44). */}
          {operated ? `No keys saved yet. ${operated.keysetName} answers with ${operated.models[0]?.label ?? "the operator's model"} until you add one.` : "No keys saved yet. The built-in DocuChat model is used until you add one."}
        </Text>
      ) : (
        <Table.Root variant="surface" data-testid="keys-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>Key name</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Provider</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Sub-provider</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>Last used</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>API key</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>
                <span className="dc-visually-hidden">Actions</span>
              </Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.keysets.map((key) => (
              <Table.Row key={key.id} data-testid="key-row" data-key-name={key.name}>
                <Table.RowHeaderCell>{key.name}</Table.RowHeaderCell>
                <Table.Cell>{key.provider}</Table.Cell>
                <Table.Cell>{key.subProvider}</Table.Cell>
                <Table.Cell>{key.lastUsed ? formatDate(key.lastUsed) : "Never"}</Table.Cell>
                <Table.Cell>
                  <RevealKey keyset={key} active={revealing === key.id} onActivate={setRevealing} />
                </Table.Cell>
                <Table.Cell>
                  <Flex gap="2" justify="end">
                    <EditKeyDialog keyset={key} onSaved={onChanged} />
                    <DeleteKeyDialog keyset={key} />
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Card>
  );
}

const formatDate = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
