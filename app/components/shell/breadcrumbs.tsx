import { Text } from "@radix-ui/themes";
import { Link, useMatches } from "@remix-run/react";
import { ChevronRightIcon } from "#app/components/icons";

/** Routes under the app shell set `handle.breadcrumb = { section, page }`. */
export type BreadcrumbHandle = { breadcrumb?: { section: string; page?: string; /** makes the section a link */ sectionTo?: string } };

export function Breadcrumbs({ productName }: { productName: string }) {
  const matches = useMatches();
  const crumb = [...matches].reverse().map((m) => (m.handle as BreadcrumbHandle | undefined)?.breadcrumb).find(Boolean);
  const parts = [crumb?.section, crumb?.page].filter((p): p is string => Boolean(p));
  return (
    <nav aria-label="Breadcrumb" className="dc-breadcrumbs">
      <ol>
        <li>
          <Link to="/" className="dc-breadcrumbs__link">
            {productName}
          </Link>
        </li>
        {parts.map((part, index) => (
          <li key={part}>
            <ChevronRightIcon size={14} className="dc-breadcrumbs__sep" />
            {index === 0 && crumb?.sectionTo && parts.length > 1 ? (
              <Link to={crumb.sectionTo} className="dc-breadcrumbs__link">
                {part}
              </Link>
            ) : index === parts.length - 1 ? (
              <Text size="2" weight="medium" aria-current="page">
                {part}
              </Text>
            ) : (
              <Text size="2" color="gray">
                {part}
              </Text>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
