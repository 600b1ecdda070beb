import { Button, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { copyText } from "#app/components/chat/clipboard";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";
import { useToast } from "#app/components/toast";
import billingStyles from "#app/styles/billing.css";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: billingStyles }];
export const meta: MetaFunction = () => [{ title: "My Referral | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Settings", page: "My Referral", sectionTo: "/profile/my-account" } };

/** Spec 001 §2 My Referral: the user's own sign-up link, a copy action, and how many joined through it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // An admin acting as someone never opens profile routes (spec 001 §2).
  if (user.impersonatorId) throw redirect("/");
  const { billing } = await getServices();
  const { code, joined } = await billing.referral(user.id);
  return { link: `${new URL(request.url).origin}/signup?refCode=${encodeURIComponent(code)}`, joined };
}

/** Spec 001 §9: the copy icon shows its copied state for 2 seconds. */
const COPIED_MS = 2000;

export default function MyReferralPage() {
  const { link, joined } = useLoaderData<typeof loader>();
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(link)) {
      toast.push({ type: "success", message: "Referral link copied to clipboard!" });
      setCopied(true);
      window.setTimeout(() => setCopied(false), COPIED_MS);
    } else {
      toast.push({ type: "error", message: "No text copied" });
    }
  };
  return (
    <Card size="3" className="dc-referral">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          Invite friends to DocuChat
        </Heading>
        <Text as="p" size="2" color="gray">
          Share your link. Everyone who signs up through it is counted here.
        </Text>
        <label htmlFor="referral-link">
          <Text size="2" weight="medium">
            Your referral link
          </Text>
        </label>
        <Flex gap="2" direction={{ initial: "column", sm: "row" }}>
          <TextField.Root id="referral-link" value={link} readOnly style={{ flex: 1 }} data-testid="referral-link" onFocus={(e) => e.currentTarget.select()} />
          <Button onClick={copy} data-testid="copy-referral">
            {copied ? "Copied" : "Copy link"}
          </Button>
        </Flex>
        <Text as="p" size="3" data-testid="referral-count">
          <strong>{joined}</strong> {joined === 1 ? "person has" : "people have"} joined through your link.
        </Text>
      </Flex>
    </Card>
  );
}
