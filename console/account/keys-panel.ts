// The account's keys: the list, a new key with chosen scopes (its secret shown once), and revoking
// (asked twice: a revoked key cannot be brought back).
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import { allOf, type ApiKey, type CreatedApiKey, type Scope } from "../api/types.ts";
import { html } from "../html.ts";
import { Busy } from "../ui/busy.ts";
import { ProblemView } from "../ui/problem-view.ts";

const SCOPES = allOf<Scope>()(["images", "pdf", "xlsx", "files", "jobs", "keys", "account"]);

export function KeysPanel({ api }: { api: ApiClient }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState<string | null>("Loading keys");
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label);
    setProblem(null);
    try {
      await work();
      setKeys((await api.get<{ data: ApiKey[] }>("/v1/keys")).data);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(null);
    }
  };
  useEffect(() => void run("Loading keys", () => Promise.resolve(undefined)), [api]);

  const create = (event: Event) => {
    event.preventDefault();
    void run("Creating a key", async () => {
      setCreated(await api.post<CreatedApiKey>("/v1/keys", { ...(name.trim() === "" ? {} : { name: name.trim() }), ...(scopes.length === 0 ? {} : { scopes }) }));
      setName("");
      setScopes([]);
    });
  };
  const revoke = (key: ApiKey) => {
    setConfirming(null);
    void run(`Revoking ${key.display_prefix}`, async () => void (await api.delete(`/v1/keys/${key.key_id}`)));
  };
  const toggle = (scope: Scope) => setScopes((all) => (all.includes(scope) ? all.filter((s) => s !== scope) : [...all, scope]));

  return html`<section class="keys" aria-labelledby="keys-heading">
    <h3 id="keys-heading">API keys</h3>
    ${busy === null ? null : html`<${Busy} label=${busy} />`}
    ${problem === null ? null : html`<${ProblemView} problem=${problem} />`}
    ${keys === null
      ? null
      : html`<table class="key-list">
          <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
          <tbody>
            ${keys.map(
              (key) => html`<tr>
                <td>${key.name ?? "—"}</td>
                <td><code>${key.display_prefix}…</code></td>
                <td>${key.scopes === null ? "full access" : key.scopes.join(", ")}</td>
                <td>${key.created_at.slice(0, 10)}</td>
                <td>${key.last_used_at?.slice(0, 10) ?? "never"}</td>
                <td>${key.revoked_at !== null
                  ? `revoked ${key.revoked_at.slice(0, 10)}`
                  : confirming === key.key_id
                    ? html`<button type="button" class="danger" onClick=${() => revoke(key)}>Revoke ${key.name ?? key.display_prefix} for good</button>
                        <button type="button" onClick=${() => setConfirming(null)}>Keep it</button>`
                    : html`<button type="button" class="destructive" aria-label=${`Revoke ${key.name ?? key.display_prefix}`} onClick=${() => setConfirming(key.key_id)}>Revoke</button>`}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    ${created === null
      ? null
      : html`<div class="secret" role="status">
          <p>New key <strong>${created.name ?? created.display_prefix}</strong>. Copy its secret now: it is not shown again.</p>
          <label for="new-key-secret">Secret</label>
          <input id="new-key-secret" type="text" readonly value=${created.secret} onFocus=${(event: Event) => (event.currentTarget as HTMLInputElement).select()} />
          <button type="button" onClick=${() => setCreated(null)}>Done</button>
        </div>`}
    <form class="create-key" onSubmit=${create}>
      <div class="field">
        <label for="new-key-name">Name</label>
        <input id="new-key-name" type="text" maxlength="100" value=${name} onInput=${(event: Event) => setName((event.currentTarget as HTMLInputElement).value)} />
      </div>
      <fieldset>
        <legend>Scopes (none ticked: full access)</legend>
        ${SCOPES.map((scope) => html`<label class="check"><input type="checkbox" checked=${scopes.includes(scope)} onChange=${() => toggle(scope)} /> ${scope}</label>`)}
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  </section>`;
}
