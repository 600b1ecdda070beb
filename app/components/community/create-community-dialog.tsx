import { Button, Dialog, Flex, Select, Text, TextArea, TextField } from "@radix-ui/themes";
import { useFetcher, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PlusIcon } from "#app/components/icons";
import { useToast } from "#app/components/toast";
import { useCsrfToken } from "#app/components/use-csrf";
import { createCommunitySchema } from "#domain/community/community-rules";
import type { CommunityListAction } from "./community-list.server";

/** 'Create New' → the modal 'Create New Public Community' (spec 001 §2, §5): both fields required, Confirm disabled while invalid. */
export function CreateCommunityDialog({ detailBase }: { detailBase: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [visibility, setVisibility] = useState<"PUBLIC" | "PRIVATE">("PUBLIC");
  const [touched, setTouched] = useState({ name: false, description: false });
  const fetcher = useFetcher<CommunityListAction>();
  const csrf = useCsrfToken();
  const toast = useToast();
  const navigate = useNavigate();

  const parsed = createCommunitySchema.safeParse({ communityName: name, communityDescription: description, visibility });
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  const serverError = fetcher.data && !fetcher.data.ok && fetcher.data.intent === "create" ? fetcher.data.message : null;

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || result.intent !== "create" || !result.ok) return;
    toast.push({ type: "success", message: result.message });
    setOpen(false);
    setName("");
    setDescription("");
    setTouched({ name: false, description: false });
    if (result.communityId) navigate(`${detailBase}/${result.communityId}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  const submit = () => {
    if (!parsed.success) return;
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("intent", "create");
    form.set("communityName", name);
    form.set("communityDescription", description);
    form.set("visibility", visibility);
    fetcher.submit(form, { method: "post" });
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger>
        <Button data-testid="create-community">
          <PlusIcon size={16} /> Create New
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="480px">
        <Dialog.Title>Create New Public Community</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          Share documents with other readers. You will be the community&apos;s owner.
        </Dialog.Description>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Flex direction="column" gap="3" mt="4">
            <label>
              <Text as="div" size="2" weight="medium" mb="1">
                Community Name
              </Text>
              <TextField.Root
                name="communityName"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                onBlur={() => setTouched((t) => ({ ...t, name: true }))}
                aria-invalid={touched.name && Boolean(errors.communityName)}
                aria-describedby="community-name-error"
              />
              <Text id="community-name-error" as="p" size="1" color="red" mt="1" role={touched.name && errors.communityName ? "alert" : undefined}>
                {touched.name ? errors.communityName : null}
              </Text>
            </label>
            <label>
              <Text as="div" size="2" weight="medium" mb="1">
                Community Description
              </Text>
              <TextArea
                name="communityDescription"
                value={description}
                rows={4}
                onChange={(e) => setDescription(e.currentTarget.value)}
                onBlur={() => setTouched((t) => ({ ...t, description: true }))}
                aria-invalid={touched.description && Boolean(errors.communityDescription)}
                aria-describedby="community-description-error"
              />
              <Text id="community-description-error" as="p" size="1" color="red" mt="1" role={touched.description && errors.communityDescription ? "alert" : undefined}>
                {touched.description ? errors.communityDescription : null}
              </Text>
            </label>
            <div>
              <Text as="div" size="2" weight="medium" mb="1" id="community-visibility">
                Visibility
              </Text>
              <Select.Root value={visibility} onValueChange={(v) => setVisibility(v as "PUBLIC" | "PRIVATE")}>
                <Select.Trigger aria-labelledby="community-visibility" />
                <Select.Content position="popper">
                  <Select.Item value="PUBLIC">Public — anyone can find and join it</Select.Item>
                  <Select.Item value="PRIVATE">Private — only people you add can see it</Select.Item>
                </Select.Content>
              </Select.Root>
            </div>
            {serverError ? (
              <Text as="p" size="2" color="red" role="alert">
                {serverError}
              </Text>
            ) : null}
            <Flex gap="3" justify="end" mt="2">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={!parsed.success} loading={fetcher.state !== "idle"} data-testid="confirm-create-community">
                Confirm
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
