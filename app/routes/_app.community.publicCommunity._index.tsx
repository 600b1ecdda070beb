import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CommunityListPage } from "#app/components/community/community-list-page";
import { communityListAction, loadCommunityList } from "#app/components/community/community-list.server";
import communityStyles from "#app/components/community/community.css";
import libraryStyles from "#app/components/library/library.css";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: libraryStyles },
  { rel: "stylesheet", href: communityStyles },
];
export const meta: MetaFunction = () => [{ title: "Public Communities | DocuChat" }];
export const handle: BreadcrumbHandle = { breadcrumb: { section: "Community", page: "Public Communities" } };

export const loader = ({ request }: LoaderFunctionArgs) => loadCommunityList(request, "public");
export const action = ({ request }: ActionFunctionArgs) => communityListAction(request);

export default function Page() {
  return <CommunityListPage kind="public" {...useLoaderData<typeof loader>()} />;
}
