import { Button, Dialog, Flex, Text } from "@radix-ui/themes";
import { useEffect, useState, type ReactNode } from "react";
import { TOUR_OPENED_EVENT } from "./tour-state";

export interface TourStep {
  title: string;
  body: ReactNode;
}

/**
 * A guided tour of centred steps (spec 000 §2): a dialog with the step's
 * title and text, where the reader is, and Back / Next / Skip tour / Finish.
 */
export function GuidedTour({ label, steps, open, onClose }: { label: string; steps: TourStep[]; open: boolean; onClose: () => void }) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!open) return;
    setIndex(0);
    window.dispatchEvent(new Event(TOUR_OPENED_EVENT));
  }, [open]);
  const step = steps[index];
  const last = index === steps.length - 1;
  if (!step) return null;
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Content maxWidth="440px" className="dc-tour" data-testid="guided-tour" aria-label={`${label}: ${step.title}`}>
        <Text as="p" size="1" color="gray" weight="medium" data-testid="tour-progress">
          {label} · Step {index + 1} of {steps.length}
        </Text>
        <Dialog.Title size="5" mt="1" mb="2">
          {step.title}
        </Dialog.Title>
        <Dialog.Description size="2">
          {step.body}
        </Dialog.Description>
        <Flex gap="1" mt="4" aria-hidden="true" className="dc-tour__dots">
          {steps.map((s, i) => (
            <span key={s.title} className={`dc-tour__dot${i === index ? " is-current" : ""}`} />
          ))}
        </Flex>
        <Flex justify="between" align="center" mt="4" gap="2" wrap="wrap">
          <Button variant="ghost" color="gray" onClick={onClose}>
            Skip tour
          </Button>
          <Flex gap="2">
            {index > 0 ? (
              <Button variant="soft" color="gray" onClick={() => setIndex(index - 1)}>
                Back
              </Button>
            ) : null}
            {last ? (
              <Button onClick={onClose}>Finish</Button>
            ) : (
              <Button onClick={() => setIndex(index + 1)}>Next</Button>
            )}
          </Flex>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
