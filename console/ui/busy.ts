import { html } from "../html.ts";

/**
 * Shown while a call is under way: a progress bar named for what it waits on, indeterminate unless
 * `share` (0..1) says how far it has come.
 */
export function Busy({ label, share }: { label: string; share?: number | null }) {
  return html`<div class="busy" role="status">
    ${share === undefined || share === null ? html`<progress aria-label=${label}></progress>` : html`<progress aria-label=${label} max="1" value=${share}></progress>`}
    <span>${label}…</span>
  </div>`;
}
