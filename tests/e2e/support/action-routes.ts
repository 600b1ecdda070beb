import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./app-server";

const ROUTES = path.join(ROOT, "app", "routes");
const SOME_ID = "01JH0000000000000000000000";

export type ActionRoute = {
  file: string;
  /** The URL a form posts to, with placeholder ids. */
  url: string;
  /** Whether the route renders a page (so single fetch also posts to `url` + `.data`). */
  page: boolean;
};

/** Every route file with an action, as the URL a form would post to. */
export function routesWithActions(): ActionRoute[] {
  return readdirSync(ROUTES)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => ({ file, source: readFileSync(path.join(ROUTES, file), "utf8") }))
    .filter(({ source }) => /export (async function action|const action|\{[^}]*\baction\b[^}]*\} from)/.test(source))
    .map(({ file, source }) => {
      const segments = file.replace(/\.tsx?$/, "").split(".");
      const index = segments[segments.length - 1] === "_index";
      const url = segments
        .filter((segment) => !segment.startsWith("_"))
        .map((segment) => (segment === "$" ? "anything" : segment.startsWith("$") ? SOME_ID : segment))
        .join("/");
      return { file, url: `/${url}${index ? "?index" : ""}`, page: /export default function/.test(source) };
    });
}
