import { html } from "../html.ts";
import type { ApiProblem } from "../api/api-problem.ts";

/** A failed call as the service explained it: the problem's title, its detail, and each field it refused. */
export function ProblemView({ problem }: { problem: ApiProblem }) {
  return html`<div class="problem" role="alert">
    <strong>${problem.title}</strong>
    ${problem.detail === undefined ? null : html`<p>${problem.detail}</p>`}
    ${problem.fields.length === 0 ? null : html`<ul>${problem.fields.map((field) => html`<li><code>${field.pointer}</code>: ${field.detail}</li>`)}</ul>`}
  </div>`;
}
