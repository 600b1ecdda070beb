import type { ComponentType } from "react";
import {
  CommunityIcon,
  DocumentsIcon,
  FileIcon,
  GlobeIcon,
  HomeIcon,
  LinkIcon,
  LockIcon,
  MicIcon,
  ShieldIcon,
  UploadIcon,
  VideoIcon,
  WorkspaceIcon,
} from "#app/components/icons";

type Icon = ComponentType<{ size?: number }>;

/** A sidebar entry: a page, or a section whose sub-menu lists pages. */
export type NavItem = { id: string; label: string; icon: Icon; adminOnly?: boolean } & ({ to: string; children?: never } | { to?: never; children: NavChild[] });
export type NavChild = { id: string; label: string; icon: Icon; to: string };

/** Spec 000 §2 App shell: Home, Upload Files, My Documents, My Workspaces, Community, Admin Dashboard. */
export const NAV_ITEMS: NavItem[] = [
  { id: "home", label: "Home", icon: HomeIcon, to: "/" },
  {
    id: "upload",
    label: "Upload Files",
    icon: UploadIcon,
    children: [
      { id: "upload-file", label: "File", icon: FileIcon, to: "/upload/files" },
      { id: "upload-urls", label: "URLs", icon: LinkIcon, to: "/upload/fileUrl" },
      { id: "upload-audio", label: "Audio", icon: MicIcon, to: "/upload/audio" },
      { id: "upload-video", label: "Video", icon: VideoIcon, to: "/upload/youtubeVideo" },
    ],
  },
  { id: "documents", label: "My Documents", icon: DocumentsIcon, to: "/history/documents" },
  { id: "workspaces", label: "My Workspaces", icon: WorkspaceIcon, to: "/history/workspaces" },
  {
    id: "community",
    label: "Community",
    icon: CommunityIcon,
    children: [
      { id: "community-public", label: "Public", icon: GlobeIcon, to: "/community/publicCommunity" },
      { id: "community-personal", label: "Personal", icon: LockIcon, to: "/community/myCommunity" },
    ],
  },
  { id: "admin", label: "Admin Dashboard", icon: ShieldIcon, to: "/adminDashboard", adminOnly: true },
];
