import { Callout, Flex, Select, Text, TextField } from "@radix-ui/themes";
import { useFetcher, useNavigate } from "@remix-run/react";
import { useEffect, useId, useState } from "react";
import { AlertIcon, GlobeIcon, LinkIcon, VideoIcon } from "#app/components/icons";
import { CsrfInput } from "#app/components/csrf-input";
import { useToast } from "#app/components/toast";
import {
  checkCrawlDepth,
  isLinkError,
  LINK_MESSAGES,
  type LinkType,
  MAX_CRAWL_DEPTH,
  MIN_CRAWL_DEPTH,
  parseDocumentLink,
  parseVideoLink,
  parseWebsiteLink,
  submitDepthError,
} from "#domain/library/link-rules";
import { useHydrated } from "#app/components/use-hydrated";
import { HintButton } from "./disabled-hint";

export const LINK_PAGES: Record<LinkType, { path: string; source: "youtube_link" | "website_url" | "document_url"; success: string }> = {
  YouTube: { path: "/upload/youtubeVideo", source: "youtube_link", success: "Uploaded Video" },
  Website: { path: "/upload/websiteLink", source: "website_url", success: "Uploaded Successfully" },
  DocumentURL: { path: "/upload/fileUrl", source: "document_url", success: "Uploaded Successfully" },
};

const PLACEHOLDERS: Record<LinkType, string> = {
  YouTube: "https://www.youtube.com/watch?v=…",
  Website: "https://example.com/docs",
  DocumentURL: "https://example.com/report.pdf",
};

const HELP: Record<LinkType, string> = {
  YouTube: "A YouTube watch, embed or short link. The video's transcript becomes a document you can chat with.",
  Website: "A web page to read. With a depth above 1, links on the same site are followed up to that many levels.",
  DocumentURL: "A direct link to a PDF, Word (doc, docx), text or Excel (xls, xlsx) file.",
};

const ICONS = { YouTube: VideoIcon, Website: GlobeIcon, DocumentURL: LinkIcon };

export function validateLink(type: LinkType, url: string): string | null {
  const result = type === "YouTube" ? parseVideoLink(url) : type === "Website" ? parseWebsiteLink(url) : parseDocumentLink(url);
  return isLinkError(result) ? result.error : null;
}

export type LinkActionData = { ok: true; message: string } | { ok: false; message: string; field?: string };

/** Spec 000 §2 Upload by link: the type dropdown switches screens; Generate File submits the link. */
export function LinkUpload({ type }: { type: LinkType }) {
  const id = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const fetcher = useFetcher<LinkActionData>();
  const [url, setUrl] = useState("");
  const [depth, setDepth] = useState("1");
  const [touched, setTouched] = useState(false);
  const urlError = touched && url.trim() ? validateLink(type, url) : null;
  const depthError = type === "Website" ? checkCrawlDepth(depth) : null;
  const busy = fetcher.state !== "idle";
  const Icon = ICONS[type];
  const hydrated = useHydrated();

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) {
      toast.push({ type: "success", message: result.message });
      const timer = window.setTimeout(() => navigate("/history/documents"), 1000);
      return () => window.clearTimeout(timer);
    }
    toast.push({ type: "error", message: result.message });
    return undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data, fetcher.state]);

  return (
    <fetcher.Form
      method="post"
      className="dc-lib-card dc-link-form"
      noValidate
      onSubmit={(event) => {
        setTouched(true);
        const error = validateLink(type, url);
        if (error) {
          event.preventDefault();
          if (error !== LINK_MESSAGES.noUrl) toast.push({ type: "error", message: error });
          return;
        }
        if (type === "Website") {
          const problem = submitDepthError(depth);
          if (problem) {
            event.preventDefault();
            toast.push({ type: "error", message: problem });
          }
        }
      }}
    >
      <CsrfInput />
      {hydrated ? <input type="hidden" name="js" value="1" /> : null}
      <Flex align="center" gap="3" mb="4">
        <span className="dc-link-form__icon">
          <Icon size={22} />
        </span>
        <Text as="p" size="2" color="gray">
          {HELP[type]}
        </Text>
      </Flex>
      <div className="dc-link-form__row">
        <Flex direction="column" gap="1" className="dc-link-form__type">
          <Text as="label" id={`${id}-type`} size="2" weight="medium">
            Type
          </Text>
          <Select.Root value={type} onValueChange={(value) => navigate(LINK_PAGES[value as LinkType].path)}>
            <Select.Trigger aria-labelledby={`${id}-type`} data-testid="link-type" />
            <Select.Content position="popper">
              <Select.Item value="YouTube">YouTube</Select.Item>
              <Select.Item value="Website">Website</Select.Item>
              <Select.Item value="DocumentURL">DocumentURL</Select.Item>
            </Select.Content>
          </Select.Root>
        </Flex>
        <Flex direction="column" gap="1" className="dc-link-form__url">
          <Text as="label" htmlFor={`${id}-url`} size="2" weight="medium">
            URL
          </Text>
          <TextField.Root
            id={`${id}-url`}
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder={PLACEHOLDERS[type]}
            value={url}
            size="3"
            onChange={(e) => setUrl(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : undefined}
          />
          {urlError ? (
            <Text id={`${id}-url-error`} size="1" color="red" role="alert">
              {urlError}
            </Text>
          ) : null}
        </Flex>
        {type === "Website" ? (
          <Flex direction="column" gap="1" className="dc-link-form__depth">
            <Text as="label" htmlFor={`${id}-depth`} size="2" weight="medium">
              Crawl depth
            </Text>
            <TextField.Root
              id={`${id}-depth`}
              name="maxDepth"
              type="number"
              min={MIN_CRAWL_DEPTH}
              max={MAX_CRAWL_DEPTH}
              step={1}
              size="3"
              value={depth}
              onChange={(e) => setDepth(e.currentTarget.value)}
              aria-invalid={depthError ? true : undefined}
              aria-describedby={`${id}-depth-hint`}
            />
            <Text id={`${id}-depth-hint`} size="1" color={depthError ? "red" : "gray"}>
              {depthError ?? `${MIN_CRAWL_DEPTH} to ${MAX_CRAWL_DEPTH} levels`}
            </Text>
          </Flex>
        ) : null}
      </div>
      {fetcher.data && !fetcher.data.ok ? (
        <Callout.Root color="red" mt="4" size="1">
          <Callout.Icon>
            <AlertIcon size={16} />
          </Callout.Icon>
          <Callout.Text>{fetcher.data.message}</Callout.Text>
        </Callout.Root>
      ) : null}
      <Flex justify="end" mt="5">
        <HintButton type="submit" size="3" disabled={!url.trim()} hint={LINK_MESSAGES.noUrl} loading={busy} data-testid="generate-file">
          Generate File
        </HintButton>
      </Flex>
    </fetcher.Form>
  );
}
