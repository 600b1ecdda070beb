import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { NotFoundPage } from "#app/components/not-found";

export const meta: MetaFunction = () => [{ title: "404! Page Not Found | DocuChat" }];

/** Route `*` (spec 000 §2): answers 404 with the not-found page. */
export async function loader(_args: LoaderFunctionArgs) {
  return data({ notFound: true }, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}
