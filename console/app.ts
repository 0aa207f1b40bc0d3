// The console's shell: the key, the sections, and which one is shown. Every section stays
// mounted, so a result is still there after a look at another section.
import { useEffect, useMemo, useState } from "preact/hooks";
import { AccountPanel } from "./account/account-panel.ts";
import { apiClient } from "./api/api-client.ts";
import type { ApiProblem } from "./api/api-problem.ts";
import { storeApiKey, storedApiKey } from "./api/session-key.ts";
import { html } from "./html.ts";
import { ImagesPanel } from "./images/images-panel.ts";
import { KeyField } from "./key/key-field.ts";
import { Busy } from "./ui/busy.ts";
import { PdfPanel } from "./pdf/pdf-panel.ts";
import { FilesPanel } from "./files/files-panel.ts";
import { useTransformAccess } from "./urls/transform-access.ts";

const SECTIONS = [
  { id: "images", label: "Images" },
  { id: "pdf", label: "PDFs" },
  { id: "urls", label: "URLs" },
  { id: "files", label: "Files" },
  { id: "account", label: "Account" },
] as const;
type SectionId = (typeof SECTIONS)[number]["id"];
type UrlsPanelComponent = typeof import("./urls/urls-panel.ts").UrlsPanel;

export function App() {
  const [apiKey, setApiKey] = useState(storedApiKey());
  const [keyRefused, setKeyRefused] = useState<ApiProblem | null>(null);
  const [section, setSection] = useState<SectionId>("images");
  const api = useMemo(() => (apiKey === null ? null : apiClient(apiKey, setKeyRefused)), [apiKey]);
  const [access, setAccess] = useTransformAccess(api, apiKey);
  const [pickedFileId, setPickedFileId] = useState<string | null>(null);
  const [handedOnPdf, setHandedOnPdf] = useState<File | null>(null);
  // The URL builders bring the transform grammar's zod schemas: that section is fetched when first opened.
  const [UrlsPanel, setUrlsPanel] = useState<UrlsPanelComponent | null>(null);
  useEffect(() => {
    if (section === "urls" && UrlsPanel === null) void import("./urls/urls-panel.ts").then((module) => setUrlsPanel(() => module.UrlsPanel));
  }, [section, UrlsPanel]);
  const changeKey = (key: string | null) => {
    storeApiKey(key);
    setKeyRefused(null);
    setApiKey(key);
  };
  return html`
    <header class="top">
      <h1>PixelPress <span>console</span></h1>
      <${KeyField} apiKey=${apiKey} refused=${keyRefused} onChange=${changeKey} />
    </header>
    <nav class="sections" aria-label="Console sections">
      ${SECTIONS.map(
        ({ id, label }) =>
          html`<button type="button" aria-current=${section === id ? "page" : undefined} onClick=${() => setSection(id)}>${label}</button>`,
      )}
      <a href="/docs">API reference</a>
    </nav>
    <main>
      ${api === null
        ? html`<p class="intro">Paste an API key above to optimize images, analyze and compress PDFs, see usage and manage keys. Everything here calls the public API with that key.</p>`
        : html`
            <${ImagesPanel}
              key=${apiKey}
              api=${api}
              hidden=${section !== "images"}
              onPdf=${(file: File) => {
                setHandedOnPdf(file);
                setSection("pdf");
              }}
            />
            <${PdfPanel} key=${apiKey} api=${api} access=${access} hidden=${section !== "pdf"} handedOn=${handedOnPdf} />
            ${UrlsPanel === null
              ? section === "urls"
                ? html`<${Busy} label="Loading the URL builder" />`
                : null
              : html`<${UrlsPanel} key=${apiKey} api=${api} access=${access} onAccessChange=${setAccess} pickedFileId=${pickedFileId} hidden=${section !== "urls"} />`}
            <${FilesPanel}
              key=${apiKey}
              api=${api}
              access=${access}
              active=${section === "files"}
              onBuildUrls=${(fileId: string) => {
                setPickedFileId(fileId);
                setSection("urls");
              }}
            />
            <${AccountPanel} key=${apiKey} api=${api} active=${section === "account"} />
          `}
    </main>
  `;
}
