import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { CsrfInput } from "#app/components/csrf-input";
import type { KeysetActionResult, SavedKey } from "./types";

/** Reveal: a 1-second placeholder first (spec 001 §9), a password confirmation when the last one is older than 5 minutes. */
export function RevealKey({ keyset, active, onActivate }: { keyset: SavedKey; active: boolean; onActivate: (id: string | null) => void }) {
  const reveal = useFetcher<KeysetActionResult>();
  const confirm = useFetcher<KeysetActionResult>();
  const [phase, setPhase] = useState<"hidden" | "placeholder" | "password" | "shown">("hidden");
  const [waited, setWaited] = useState(false);
  const [password, setPassword] = useState("");
  const submitReveal = () => reveal.submit({ intent: "reveal", id: keyset.id, csrf: csrfToken() }, { method: "post" });
  const start = () => {
    onActivate(keyset.id);
    setPhase("placeholder");
    setWaited(false);
    setTimeout(() => setWaited(true), 1000);
    submitReveal();
  };
  useEffect(() => {
    if (phase !== "placeholder" || !waited || reveal.state !== "idle" || !reveal.data) return;
    if (reveal.data.ok && reveal.data.apiKey !== undefined) setPhase("shown");
    else if (!reveal.data.ok && reveal.data.needsPassword) setPhase("password");
    else setPhase("hidden");
  }, [phase, waited, reveal.state, reveal.data]);
  useEffect(() => {
    if (confirm.state === "idle" && confirm.data?.ok && phase === "password") {
      setPassword("");
      setPhase("placeholder");
      submitReveal();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [confirm.state, confirm.data]);
  useEffect(() => {
    if (!active && phase === "shown") setPhase("hidden");
  }, [active, phase]);
  const shown = phase === "shown" && reveal.data?.ok ? reveal.data.apiKey : null;
  return (
    <Flex gap="2" align="center">
      <code className="dc-key" data-testid="key-value" aria-live="polite">
        {phase === "placeholder" ? "Revealing…" : shown !== null && shown !== undefined ? shown || "(no key)" : "••••••••••"}
      </code>
      {phase === "shown" ? (
        <Button size="1" variant="soft" type="button" onClick={() => setPhase("hidden")}>
          Hide<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      ) : (
        <Button size="1" variant="soft" type="button" onClick={start} disabled={phase === "placeholder"} data-testid="reveal-key">
          Reveal<span className="dc-visually-hidden"> key {keyset.name}</span>
        </Button>
      )}
      <Dialog.Root open={phase === "password"} onOpenChange={(open) => !open && setPhase("hidden")}>
        <Dialog.Content maxWidth="420px" data-testid="confirm-password-dialog">
          <Dialog.Title>Confirm your password</Dialog.Title>
          <Dialog.Description size="2">To show a saved API key, enter your password again.</Dialog.Description>
          <confirm.Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="confirm-password" />
            <Flex direction="column" gap="2" mt="3">
              <label htmlFor={`password-${keyset.id}`}>
                <Text weight="medium">Password</Text>
              </label>
              <TextField.Root id={`password-${keyset.id}`} name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
              {confirm.data && !confirm.data.ok ? (
                <Text color="red" size="2" role="alert">
                  {confirm.data.error}
                </Text>
              ) : null}
            </Flex>
            <Flex gap="3" mt="4" justify="end">
              <Dialog.Close>
                <Button variant="soft" color="gray" type="button">
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={!password || confirm.state !== "idle"} data-testid="confirm-password">
                Confirm
              </Button>
            </Flex>
          </confirm.Form>
        </Dialog.Content>
      </Dialog.Root>
    </Flex>
  );
}

function csrfToken(): string {
  if (typeof document === "undefined") return "";
  return (document.querySelector('input[name="csrf"]') as HTMLInputElement | null)?.value ?? "";
}
