import { CheckCircleIcon } from "#app/components/icons";
import { WelcomeIllustration } from "#app/components/illustrations/welcome";

export const WIZARD_STEPS = [
  { label: "Workspace Details", header: "Add Workspace Related Details" },
  { label: "Chat Preferences", header: "Customise Chat Preferences" },
  { label: "File Details", header: "Add File Related Details" },
  { label: "Review and Launch", header: "Review and Launch" },
] as const;

/** The wizard's step list: done steps ticked, the current one marked for screen readers. */
export function WizardSteps({ step }: { step: number }) {
  return (
    <aside className="dc-ws-wizard__aside" aria-label="Steps">
      <ol className="dc-ws-steps">
        {WIZARD_STEPS.map((s, i) => (
          <li key={s.label} className={`dc-ws-steps__item${i === step ? " is-current" : ""}${i < step ? " is-done" : ""}`} aria-current={i === step ? "step" : undefined}>
            <span className="dc-ws-steps__dot" aria-hidden="true">
              {i < step ? <CheckCircleIcon size={16} /> : i + 1}
            </span>
            <span>{s.label}</span>
          </li>
        ))}
      </ol>
      <WelcomeIllustration className="dc-ws-wizard__art" />
    </aside>
  );
}
