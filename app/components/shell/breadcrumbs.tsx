import { Text } from "@radix-ui/themes";
import { Link, useMatches } from "@remix-run/react";
import { ChevronRightIcon } from "#app/components/icons";

/**
 * Routes under the app shell set `handle.breadcrumb = { section, page }`.
 * `name` reads the last crumb from the route's data (a community's name):
 * `page` then links back to `sectionTo`, the list it belongs to.
 */
export type BreadcrumbHandle = {
  breadcrumb?: { section: string; page?: string; /** makes the section a link */ sectionTo?: string; name?: (data: unknown) => string | undefined };
};

type Crumb = { label: string; to?: string };

export function Breadcrumbs({ productName }: { productName: string }) {
  const matches = useMatches();
  const match = [...matches].reverse().find((m) => (m.handle as BreadcrumbHandle | undefined)?.breadcrumb);
  const crumb = (match?.handle as BreadcrumbHandle | undefined)?.breadcrumb;
  const name = crumb?.name?.(match?.data);
  const parts: Crumb[] = !crumb
    ? []
    : name
      ? [{ label: crumb.section }, ...(crumb.page ? [{ label: crumb.page, to: crumb.sectionTo }] : []), { label: name }]
      : [{ label: crumb.section, to: crumb.page ? crumb.sectionTo : undefined }, ...(crumb.page ? [{ label: crumb.page }] : [])];
  return (
    <nav aria-label="Breadcrumb" className="dc-breadcrumbs">
      <ol>
        <li>
          <Link to="/" className="dc-breadcrumbs__link">
            {productName}
          </Link>
        </li>
        {parts.map((part, index) => (
          <li key={part.label}>
            <ChevronRightIcon size={14} className="dc-breadcrumbs__sep" />
            {index === parts.length - 1 ? (
              <Text size="2" weight="medium" aria-current="page">
                {part.label}
              </Text>
            ) : part.to ? (
              <Link to={part.to} className="dc-breadcrumbs__link">
                {part.label}
              </Link>
            ) : (
              <Text size="2" color="gray">
                {part.label}
              </Text>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
