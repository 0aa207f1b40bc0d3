import { html } from "../html.ts";

/** Shown while a call is under way: an indeterminate progress bar named for what it waits on. */
export function Busy({ label }: { label: string }) {
  return html`<div class="busy" role="status">
    <progress aria-label=${label}></progress>
    <span>${label}…</span>
  </div>`;
}
