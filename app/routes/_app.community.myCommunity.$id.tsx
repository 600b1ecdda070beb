import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction, SerializeFrom } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CommunityDetailPage } from "#app/components/community/community-detail-page";
import { communityDetailAction, loadCommunityDetail } from "#app/components/community/community-detail.server";
import communityStyles from "#app/components/community/community.css";
import libraryStyles from "#app/components/library/library.css";
import switcherStyles from "#app/components/workspace/workspace-switcher.css";
import type { BreadcrumbHandle } from "#app/components/shell/breadcrumbs";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: switcherStyles },
  { rel: "stylesheet", href: libraryStyles },
  { rel: "stylesheet", href: communityStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.community.communityName ?? "Community"} | DocuChat` }];
export const handle: BreadcrumbHandle = {
  breadcrumb: { section: "Community", page: "My Communities", sectionTo: "/community/myCommunity", name: (data) => (data as SerializeFrom<typeof loader> | undefined)?.community.communityName },
};

export const loader = ({ request, params }: LoaderFunctionArgs) => loadCommunityDetail(request, params.id ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => communityDetailAction(request, params.id ?? "");

export default function Page() {
  return <CommunityDetailPage {...useLoaderData<typeof loader>()} listPath="/community/myCommunity" listTitle="My Communities" />;
}
