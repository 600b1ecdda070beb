import { Heading, Text } from "@radix-ui/themes";
import { NavLink, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { FileIcon, LinkIcon, MicIcon, VideoIcon } from "#app/components/icons";

const MEDIA = [
  { to: "/upload/files", label: "Upload Files", icon: FileIcon },
  { to: "/upload/fileUrl", label: "Explore URLs", icon: LinkIcon, also: ["/upload/websiteLink"] },
  { to: "/upload/youtubeVideo", label: "Add Videos", icon: VideoIcon },
  { to: "/upload/audio", label: "Try with Audio", icon: MicIcon },
];

/** Header of every upload screen, with the links to try the other media (spec 000 §2 Upload files). */
export function UploadLayout({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <div className="dc-lib-page">
      <header className="dc-lib-page__header">
        <div>
          <Heading as="h1" size={{ initial: "6", sm: "7" }}>
            {title}
          </Heading>
          <Text as="p" size="3" color="gray" mt="1">
            {description}
          </Text>
        </div>
      </header>
      <nav aria-label="Try other media" className="dc-media-nav">
        <ul>
          {MEDIA.map((item) => {
            const Icon = item.icon;
            return (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    `dc-media-nav__link${isActive || item.also?.includes(pathname) ? " active" : ""}`
                  }
                  prefetch="intent"
                >
                  <Icon size={18} />
                  <span>{item.label}</span>
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      {children}
    </div>
  );
}
