import { useState } from "preact/hooks";
import type { ApiProblem } from "../api/api-problem.ts";
import { html } from "../html.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { keyRefusal } from "./check-key.ts";

/**
 * Where a person pastes the key once. A password field, so it is not shown on screen or offered
 * to autofill; once in use only its public prefix shows, as the key list shows it. A key the
 * service refuses is not taken: its problem shows here instead, and so does a later 401
 * (`refused`) for the key in use.
 */
export function KeyField({ apiKey, refused, onChange }: { apiKey: string | null; refused: ApiProblem | null; onChange: (apiKey: string | null) => void }) {
  const [draft, setDraft] = useState("");
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  if (apiKey !== null) {
    return html`<div class="key-field">
      <span>Using key <code>${apiKey.slice(0, 12)}…</code>, kept in this tab only.</span>
      <button type="button" onClick=${() => onChange(null)}>Forget key</button>
      ${refused === null
        ? null
        : html`<div class="key-refused"><${ProblemView} problem=${refused} /><p>The service no longer accepts this key: forget it and paste another.</p></div>`}
    </div>`;
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    const key = draft.trim();
    if (key === "" || checking) return;
    setChecking(true);
    const refusal = await keyRefusal(key);
    setChecking(false);
    setProblem(refusal);
    if (refusal !== null) return;
    setDraft("");
    onChange(key);
  };
  return html`<form class="key-field" onSubmit=${(event: Event) => void submit(event)}>
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
    <button type="submit" disabled=${checking}>${checking ? "Checking the key…" : "Use key"}</button>
    <p id="api-key-hint" class="hint">Kept in this tab's session storage and sent only to this service, in the Authorization header.</p>
    ${problem === null ? null : html`<div class="key-refused"><${ProblemView} problem=${problem} /></div>`}
  </form>`;
}
