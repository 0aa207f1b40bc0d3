import { useState } from "preact/hooks";
import { html } from "../html.ts";

/**
 * Where a person pastes the key once. A password field, so it is not shown on screen or offered
 * to autofill; once in use only its public prefix shows, as the key list shows it.
 */
export function KeyField({ apiKey, onChange }: { apiKey: string | null; onChange: (apiKey: string | null) => void }) {
  const [draft, setDraft] = useState("");
  if (apiKey !== null) {
    return html`<div class="key-field">
      <span>Using key <code>${apiKey.slice(0, 12)}…</code>, kept in this tab only.</span>
      <button type="button" onClick=${() => onChange(null)}>Forget key</button>
    </div>`;
  }
  const submit = (event: Event) => {
    event.preventDefault();
    const key = draft.trim();
    if (key === "") return;
    setDraft("");
    onChange(key);
  };
  return html`<form class="key-field" onSubmit=${submit}>
    <label for="api-key">API key</label>
    <input
      id="api-key"
      type="password"
      autocomplete="off"
      spellcheck=${false}
      placeholder="ak_live_…"
      aria-describedby="api-key-hint"
      value=${draft}
      onInput=${(event: Event) => setDraft((event.currentTarget as HTMLInputElement).value)}
    />
    <button type="submit">Use key</button>
    <p id="api-key-hint" class="hint">Kept in this tab's session storage and sent only to this service, in the Authorization header.</p>
  </form>`;
}
