import { Button, Dialog, Flex, IconButton, Text } from "@radix-ui/themes";
import { Tooltip } from "#app/components/tooltip";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { ChatIcon, ChevronDownIcon, ChevronRightIcon, CloseIcon, FileIcon, FilePlusIcon, HomeIcon, SearchIcon, SettingsIcon } from "#app/components/icons";
import { throwWorkspacePageError } from "#app/components/workspace/api.server";
import { AttachDialog } from "#app/components/workspace/attach-dialog";
import { ChatSlot } from "#app/components/workspace/chat-slot";
import { fromPreferenceValues, preferenceOptions, toPreferenceValues } from "#app/components/workspace/chat-preferences";
import { DocumentFrame } from "#app/components/workspace/document-frame";
import { MobileFileBar } from "#app/components/workspace/mobile-file-bar";
import { MobileFileGrid } from "#app/components/workspace/mobile-file-grid";
import { useFullscreen } from "#app/components/workspace/use-fullscreen";
import { useWorkspaceSession } from "#app/components/workspace/use-workspace-session";
import { WorkspaceSidebar } from "#app/components/workspace/workspace-sidebar";
import { FileTabs } from "#app/components/viewer/file-tabs";
import { CAPTURE_EVENT, useCitationRequests, useViewerCaptureMode } from "#app/components/viewer/events";
import { SettingsDialog, type SettingsActionResult } from "#app/components/workspace/settings-dialog";
import { useCsrfToken } from "#app/components/use-csrf";
import { useToast } from "#app/components/toast";
import { WorkspaceSwitcher } from "#app/components/workspace/workspace-switcher";
import workspaceStyles from "#app/components/workspace/workspace.css";
import resumeStyles from "#app/components/resume/resume.css";
import switcherStyles from "#app/components/workspace/workspace-switcher.css";
import { ResumeWorkbench } from "#app/components/resume/resume-workbench";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { ImpersonationBar } from "#app/components/administration/impersonation-bar";
import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { WorkspaceTour } from "#app/components/tour/workspace-tour";
import { formRefusalStatus } from "#app/utils/api-errors.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: switcherStyles },
  { rel: "stylesheet", href: workspaceStyles },
  { rel: "stylesheet", href: resumeStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: d ? `${d.workspace.name} | ${d.productName}` : "Workspace | DocuChat" }];

const NEW_CHAT = "new-chat";
const FLASH_MS = 1000;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { workspaceQueries, modelCatalog, config } = await getServices();
  let ws;
  try {
    ws = await workspaceQueries.get(user.id, params.id ?? "");
  } catch (error) {
    return throwWorkspacePageError(error);
  }
  if (ws.status === "CREATING") throw redirect(`/workspace/${ws.id}/launch`);
  if (ws.status === "FAILED") throw await redirectWithToast("/history/workspaces", { type: "error", message: "Failed to launch workspace" });
  await recordViewWhileImpersonating(request, user, "workspace", ws.id, ws.name);
  // The switcher and the attach dialog fetch the owner's workspaces and files a page at a time once opened.
  const models = await modelCatalog.availableFor(user.id);
  return {
    productName: config.productName,
    // An admin acting as this user may look but not send (enforced by the server too).
    readOnly: user.role === "impersonate",
    impersonation: user.impersonation ? { deadline: user.impersonation.deadline, userName: user.displayName ?? user.username } : null,
    serverNow: Date.now(),
    preferenceOptions: preferenceOptions(models),
    workspace: {
      id: ws.id,
      name: ws.name,
      description: ws.description,
      type: ws.type,
      chatPreference: ws.chatPreference,
      embeddingIndex: ws.embeddingIndex ?? null,
      session: ws.session,
      firstConversationId: ws.firstConversationId,
      resumeId: ws.resumeId,
      documents: ws.documents,
      conversations: ws.conversations.map((c) => ({ id: c.id, title: c.title, createdAt: c.createdAt })),
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const intent = String(formData.get("intent") ?? "");
  const ctx = getRequestContext(request, { actorId: user.id });
  const id = params.id ?? "";
  try {
    const { workspaces } = await getServices();
    if (intent === "rename") {
      await workspaces.rename(user.id, id, { name: String(formData.get("name") ?? ""), description: String(formData.get("description") ?? "") }, ctx);
      return data<SettingsActionResult>({ ok: true, intent, message: "Workspace details saved" });
    }
    if (intent === "chatPreference") {
      const chatPreference = fromPreferenceValues({ text: formData.get("prefText"), image: formData.get("prefImage"), embedding: formData.get("prefEmbedding") });
      await workspaces.changeChatPreference(user.id, id, chatPreference, ctx);
      return data<SettingsActionResult>({ ok: true, intent, message: "Chat preferences saved" });
    }
    return data<SettingsActionResult>({ ok: false, intent, message: "Unknown action" }, { status: 400 });
  } catch (error) {
    if (isDomainError(error)) {
      if (error.code === "WORKSPACE_NOT_EXIST") throw await redirectWithToast("/history/workspaces", { type: "error", message: error.message });
      return data<SettingsActionResult>({ ok: false, intent, message: error.message, field: error.field }, { status: formRefusalStatus(error) });
    }
    throw error;
  }
}

export default function WorkspaceRoute() {
  const loaderData = useLoaderData<typeof loader>();
  // A fresh screen per workspace: switching unmounts the old one (which saves its session).
  const { impersonation, serverNow } = loaderData;
  const screen = <WorkspaceScreen key={loaderData.workspace.id} {...loaderData} />;
  // While an admin impersonates, the bar takes the top of the screen and the workspace the rest: it covers no header.
  return impersonation ? (
    <div className="dc-wsx-impersonated">
      <ImpersonationBar deadline={impersonation.deadline} serverNow={serverNow} userName={impersonation.userName} />
      {screen}
    </div>
  ) : (
    screen
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function WorkspaceScreen({ workspace, productName, readOnly, preferenceOptions: modelOptions }: LoaderData) {
  const revalidator = useRevalidator();
  const csrfToken = useCsrfToken();
  const docs = workspace.documents;
  const docById = useMemo(() => new Map(docs.map((d) => [d.documentId, d])), [docs]);
  const isResume = workspace.type === "Resume Builder";

  // Restored from workspace.session (spec 001 §4).
  // A Resume Builder workspace opens on its resume (spec 001 §4), not on the last file.
  const restoredIds = isResume ? [] : workspace.session.activeFileIds;
  const [openIds, setOpenIds] = useState<string[]>(() => restoredIds.filter((id) => docById.has(id)));
  const [activeId, setActiveId] = useState<string | null>(() => {
    const open = restoredIds.filter((id) => docById.has(id));
    const saved = workspace.session.openFileId;
    return saved && open.includes(saved) ? saved : (open[open.length - 1] ?? null);
  });
  const [conversationId, setConversationId] = useState<string | null>(
    () => workspace.session.activeConversationId ?? workspace.firstConversationId ?? null,
  );
  const [collapsed, setCollapsed] = useState(false);
  const [flash, setFlash] = useState(false);
  const [chatOpen, setChatOpen] = useState(true);
  const [mobileChatOpen, setMobileChatOpen] = useState(false);
  const [attachOpen, setAttachOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Capture mode is the screen's: the viewer's toolbar and the chat input's capture icon both turn it on.
  const [captureMode, setCaptureMode] = useState(false);
  // Started from the chat, one capture is what was asked for: it ends capture mode and the chat comes back with the image.
  const captureForChat = useRef(false);
  const toast = useToast();

  // Drop tabs of documents that left the workspace.
  useEffect(() => {
    setOpenIds((ids) => ids.filter((id) => docById.has(id)));
    setActiveId((id) => (id && docById.has(id) ? id : null));
  }, [docById]);

  // ---- session save on leaving -------------------------------------------------------------
  const switchTo = useWorkspaceSession(workspace.id, csrfToken, {
    activeFileIds: openIds,
    openFileId: activeId,
    activeConversationId: conversationId === NEW_CHAT ? null : conversationId,
  }, readOnly);

  const [fullscreen, toggleFullscreen] = useFullscreen();

  // ---- files and tabs --------------------------------------------------------------------
  const openFile = (id: string) => {
    setOpenIds((ids) => (ids.includes(id) ? ids : [...ids, id]));
    setActiveId(id);
  };
  // Closing a tab selects the previous one (spec 001 §4).
  const closeFile = (id: string) => {
    const index = openIds.indexOf(id);
    const next = openIds.filter((x) => x !== id);
    setOpenIds(next);
    if (activeId === id) setActiveId(next.length === 0 ? null : next[Math.max(0, index - 1)]);
  };
  // A citation to a closed document opens its tab; the viewer then goes to the page.
  useCitationRequests(openFile);
  // Another file (or none) ends capturing the old one.
  useEffect(() => setCaptureMode(false), [activeId]);
  useEffect(() => {
    if (!captureMode) captureForChat.current = false;
  }, [captureMode]);
  useEffect(() => {
    const captured = () => {
      if (captureForChat.current) setCaptureMode(false);
    };
    window.addEventListener(CAPTURE_EVENT, captured);
    return () => window.removeEventListener(CAPTURE_EVENT, captured);
  }, []);
  // While capturing an area the chat is minimised and its toggle disabled (spec 001 §2).
  const capturing = useViewerCaptureMode();
  const flashSidebar = () => {
    setFlash(true);
    window.setTimeout(() => setFlash(false), FLASH_MS);
  };
  const newChat = () => {
    setConversationId(NEW_CHAT);
    setChatOpen(true);
  };

  const tabs = openIds.map((id) => ({ id, name: docById.get(id)?.documentName ?? "Document" }));
  const activeDoc = activeId ? docById.get(activeId) : undefined;
  const conversations = workspace.conversations;
  const activeConversation = conversations.find((c) => c.id === conversationId);
  const chatTitle = activeConversation?.title || "New Chat";
  const sidebarOpen = !collapsed || flash;
  // The chat input's capture icon (spec 001 §2, §5): with no file open it says so; from the phone's sheet it closes the sheet first.
  const startCapture = () => {
    if (!activeDoc || activeDoc.status !== "ACTIVE") {
      toast.push({ type: "info", message: "Open atleast one file to capture" });
      return;
    }
    setMobileChatOpen(false);
    captureForChat.current = true;
    setCaptureMode(true);
  };
  const preferences = toPreferenceValues(workspace.chatPreference);

  const switcherTrigger = (
    <button type="button" className="dc-wsx-switch" data-testid="workspace-switcher" aria-label={`Switch workspace, current: ${workspace.name}`}>
      <span className="dc-ws-ellipsis" data-testid="workspace-name">
        {workspace.name}
      </span>
      <ChevronDownIcon size={16} />
    </button>
  );

  const chatSlot = (
    <ChatSlot
      conversationId={conversationId}
      workspaceId={workspace.id}
      hasDocuments={docs.length > 0}
      documents={docs.map((d) => ({ documentId: d.documentId, documentName: d.documentName, pageCount: d.pageCount }))}
      workspaceType={workspace.type}
      conversations={conversations.map((c) => ({ id: c.id, title: c.title }))}
      title={chatTitle}
      readOnly={readOnly}
      onCapture={startCapture}
      onConversationChange={(id) => {
        setConversationId(id);
        // The new chat's title and its place in Workspace Chats come from the server.
        revalidator.revalidate();
      }}
    />
  );

  const chatPanel = (
    <>
      <header className="dc-wsx-chat__header">
        <ChatIcon size={18} />
        <Text size="3" weight="bold" className="dc-ws-ellipsis" data-testid="chat-title" title={chatTitle}>
          {chatTitle}
        </Text>
      </header>
      {chatSlot}
    </>
  );

  return (
    <div className={`dc-wsx${sidebarOpen ? "" : " is-collapsed"}${flash ? " is-flashing" : ""}`} data-testid="workspace-screen" data-workspace-id={workspace.id}>
      <a href="#doc-area" className="dc-skip-link">
        Skip to documents
      </a>
      <h1 className="dc-visually-hidden">{workspace.name}</h1>
      <WorkspaceTour />

      {/* ---- Sidebar (above 1024 px): 250 px, or a 20 px strip ---- */}
      <aside className="dc-wsx-sidebar" aria-label="Workspace sidebar" data-testid="workspace-sidebar">
        {sidebarOpen ? (
          <WorkspaceSidebar
            productName={productName}
            workspaceId={workspace.id}
            switcherTrigger={switcherTrigger}
            onSwitch={switchTo}
            fullscreen={fullscreen}
            onToggleFullscreen={toggleFullscreen}
            onCollapse={() => setCollapsed(true)}
            flash={flash}
            isResume={isResume}
            docs={docs}
            openIds={openIds}
            activeId={activeId}
            onOpenFile={openFile}
            onAttach={() => setAttachOpen(true)}
            conversations={conversations}
            conversationId={conversationId}
            onOpenChat={(id) => {
              setConversationId(id);
              setChatOpen(true);
            }}
            onNewChat={newChat}
            onOpenSettings={() => setSettingsOpen(true)}
          />
        ) : (
          <button type="button" className="dc-wsx-sidebar__strip" onClick={() => setCollapsed(false)} aria-label="Expand sidebar" data-testid="expand-sidebar">
            <ChevronRightIcon size={14} />
          </button>
        )}
      </aside>

      <div className="dc-wsx-body">
        {/* ---- Mobile navbar (1024 px and below) ---- */}
        <header className="dc-wsx-mnav" data-testid="mobile-navbar">
          <IconButton asChild variant="ghost" color="gray" aria-label="Home">
            <Link to="/">
              <HomeIcon size={20} />
            </Link>
          </IconButton>
          <WorkspaceSwitcher
            currentId={workspace.id}
            onSwitch={switchTo}
            trigger={
              <button type="button" className="dc-wsx-switch dc-wsx-switch--mobile" aria-label={`Search workspaces, current: ${workspace.name}`} data-testid="mobile-switcher">
                <SearchIcon size={16} />
                <span className="dc-ws-ellipsis">{workspace.name}</span>
                <ChevronDownIcon size={14} />
              </button>
            }
          />
          <IconButton variant="ghost" color="gray" aria-label="Workspace Settings" onClick={() => setSettingsOpen(true)}>
            <SettingsIcon size={20} />
          </IconButton>
        </header>

        <div className="dc-wsx-center">
          <main id="doc-area" className="dc-wsx-docs" tabIndex={-1} aria-label="Documents">
            {activeDoc ? (
              <>
                <div className="dc-wsx-desktop-only">
                  <FileTabs tabs={tabs} activeId={activeId} onSelect={setActiveId} onClose={closeFile} panelId="doc-panel" />
                </div>
                <MobileFileBar activeDoc={activeDoc} tabs={tabs} openCount={openIds.length} onSelect={setActiveId} onClose={closeFile} />
                <div role="tabpanel" id="doc-panel" aria-labelledby={`doc-tab-${activeDoc.documentId}`} className="dc-wsx-panel">
                  <DocumentFrame document={activeDoc} chatOpen={chatOpen && !capturing} captureMode={captureMode} onCaptureModeChange={setCaptureMode} />
                </div>
              </>
            ) : isResume && workspace.resumeId ? (
              <ResumeWorkbench
                resumeId={workspace.resumeId}
                conversationId={conversationId === NEW_CHAT ? (workspace.firstConversationId ?? null) : (conversationId ?? workspace.firstConversationId ?? null)}
                readOnly={readOnly}
              />
            ) : (
              <>
                <div className="dc-wsx-desktop-only dc-wsx-empty" data-testid="no-documents-opened">
                  <span className="dc-wsx-empty__icon" aria-hidden="true">
                    <FileIcon size={32} />
                  </span>
                  <Text size="4" weight="bold">
                    No documents opened
                  </Text>
                  <Text size="2" color="gray" align="center">
                    {docs.length > 0 ? "Pick a file from Related Files to read it beside the chat." : "This workspace has no files yet. Attach some to start."}
                  </Text>
                  <Button size="3" onClick={flashSidebar} data-testid="open-a-document">
                    Open a Document
                  </Button>
                </div>
                <MobileFileGrid workspaceName={workspace.name} docs={docs} onOpenFile={openFile} />
              </>
            )}
          </main>

          {chatOpen ? (
            <aside
              className="dc-wsx-chat dc-wsx-desktop-only"
              aria-label="Chat"
              data-testid="chat-panel"
              data-minimised={capturing ? "" : undefined}
              aria-hidden={capturing ? true : undefined}
            >
              {chatPanel}
              <IconButton variant="ghost" color="gray" size="1" className="dc-wsx-chat__close" aria-label="Close chat" onClick={() => setChatOpen(false)}>
                <CloseIcon size={14} />
              </IconButton>
            </aside>
          ) : (
            <div className="dc-wsx-desktop-only dc-wsx-chat-reopen">
              <Tooltip content="Open chat">
                <IconButton variant="soft" aria-label="Open chat" disabled={capturing} onClick={() => setChatOpen(true)}>
                  <ChatIcon size={16} />
                </IconButton>
              </Tooltip>
            </div>
          )}
        </div>

        {/* ---- Floating buttons (1024 px and below) ---- */}
        <div className="dc-wsx-fab dc-wsx-mobile-only">
          {isResume ? null : (
            <IconButton size="4" variant="soft" radius="full" aria-label="Attach files" onClick={() => setAttachOpen(true)} data-testid="fab-attach">
              <FilePlusIcon size={22} />
            </IconButton>
          )}
          <IconButton
            size="4"
            radius="full"
            aria-label="New chat"
            onClick={() => {
              newChat();
              setMobileChatOpen(true);
            }}
            data-testid="fab-chat"
          >
            <ChatIcon size={22} />
          </IconButton>
        </div>
      </div>

      <Dialog.Root open={mobileChatOpen} onOpenChange={setMobileChatOpen}>
        <Dialog.Content className="dc-wsx-sheet" aria-describedby={undefined}>
          <Flex align="center" justify="between" gap="2" className="dc-wsx-chat__header">
            <Dialog.Title size="3" mb="0">
              {chatTitle}
            </Dialog.Title>
            <Dialog.Close>
              <IconButton variant="ghost" color="gray" aria-label="Close chat">
                <CloseIcon size={16} />
              </IconButton>
            </Dialog.Close>
          </Flex>
          {chatSlot}
        </Dialog.Content>
      </Dialog.Root>

      {isResume ? null : (
        <AttachDialog
          open={attachOpen}
          onOpenChange={setAttachOpen}
          workspaceId={workspace.id}
          attachedIds={docs.map((d) => d.documentId)}
          onAttached={() => undefined}
        />
      )}
      <SettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} name={workspace.name} description={workspace.description} preferences={preferences} preferenceOptions={modelOptions} embeddingIndex={workspace.embeddingIndex} documents={workspace.documents} />
    </div>
  );
}
