import radixStyles from "@radix-ui/themes/styles.css";
import { Button, Code, Flex, Heading, Text, Theme } from "@radix-ui/themes";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { LogoMark } from "#app/components/logo";
import { NotFoundPage } from "#app/components/not-found";
import { ToastProvider, type ToastInput } from "#app/components/toast";
import appStyles from "#app/styles/app.css";
import { getCsrfToken } from "#app/utils/csrf.server";
import { useNonce } from "#app/utils/nonce-provider";
import { getServices } from "#app/utils/services.server";
import { getToast } from "#app/utils/toast.server";
import { getCurrentUser } from "#app/utils/session.server";
import { useAuthSync } from "#app/components/auth/use-auth-sync";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: radixStyles },
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ data: loaderData }) => {
  const productName = loaderData?.productName ?? "DocuChat";
  return [
    { title: productName },
    { name: "description", content: `${productName}: upload your documents, group them into workspaces and chat with an AI about them.` },
  ];
};

/** Several helpers set cookies; keep every Set-Cookie instead of letting one overwrite another. */
function combineHeaders(...sources: Headers[]): Headers {
  const out = new Headers();
  for (const source of sources) {
    for (const cookie of source.getSetCookie()) out.append("Set-Cookie", cookie);
    source.forEach((value, key) => {
      if (key.toLowerCase() !== "set-cookie") out.append(key, value);
    });
  }
  return out;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ toast, headers: toastHeaders }, { token, headers: csrfHeaders }, services, user] = await Promise.all([
    getToast(request),
    getCsrfToken(request),
    getServices(),
    getCurrentUser(request),
  ]);
  const toastForClient: ToastInput | null = toast ? { type: toast.type, message: toast.message } : null;
  return data(
    {
      toast: toastForClient,
      csrfToken: token,
      productName: services.config.productName,
      signedIn: user !== null,
      /** The chat's layout and answer language, saved with the account (the chat's first paint uses it). */
      chatLayout: user ? await services.chatLayouts.get(user.id) : null,
      /** Whose layout it is: a tab that signs another account in must not keep the previous one's unsaved layout. */
      chatLayoutOwner: user?.id ?? null,
    },
    { headers: combineHeaders(toastHeaders, csrfHeaders) },
  );
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>["data"];

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  useHydrationMark();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Theme accentColor="indigo" grayColor="slate" radius="large" scaling="100%" panelBackground="solid">
          {children}
        </Theme>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast, signedIn } = useLoaderData<typeof loader>();
  useAuthSync(signedIn);
  return (
    <Document>
      <ToastProvider initial={toast}>
        <Outlet />
      </ToastProvider>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const productName = rootData?.productName ?? "DocuChat";

  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Document>
        <NotFoundPage />
      </Document>
    );
  }

  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : status === 403
        ? "Your request could not be verified. Reload the page and try again."
        : "Something went wrong";

  return (
    <Document>
      <main className="dc-status-page" id="main">
        <Flex direction="column" align="center" gap="4" className="dc-status-page__inner">
          <LogoMark size={56} />
          <Text size="2" color="gray" weight="medium">
            {productName} · Error {status}
          </Text>
          <Heading as="h1" size="7" align="center">
            {status === 403 ? "Request blocked" : "Something went Wrong!"}
          </Heading>
          <Text as="p" color="gray" size="3" align="center">
            {message}
          </Text>
          {process.env.NODE_ENV !== "production" && error instanceof Error ? (
            <Code variant="ghost" className="dc-status-page__stack">
              {error.message}
            </Code>
          ) : null}
          <Flex gap="3">
            <Button asChild size="3">
              <a href="/">Go to home</a>
            </Button>
            <Button asChild size="3" variant="soft" color="gray">
              <a href="">Try again</a>
            </Button>
          </Flex>
        </Flex>
      </main>
    </Document>
  );
}

/**
 * Marks <html data-hydrated="true"> once the first page has hydrated. The document's
 * effect runs after every route's, so from then on every handler is attached;
 * before it, a click on a script-only control does nothing (browser journeys wait for it).
 */
function useHydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
}
