import { html, raw } from "hono/html";
import { PROBLEM_TYPE_BASE, problemCatalogue, problemTypeUri, type ProblemType } from "../../contracts/problems/catalogue.ts";

export const PROBLEMS_PATH = "/problems";

export function isProblemSlug(slug: string): slug is ProblemType {
  return Object.hasOwn(problemCatalogue, slug);
}

// Catalogue descriptions use `code` spans; rendered as <code>, everything else escaped.
function inlineCode(text: string) {
  return raw(
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/`([^`]+)`/g, "<code>$1</code>"),
  );
}

function section(slug: ProblemType) {
  const entry = problemCatalogue[slug];
  return html`<section id="${slug}">
  <h2><a href="${PROBLEMS_PATH}/${slug}">${entry.title}</a></h2>
  <p><code>${problemTypeUri(slug)}</code> &middot; HTTP ${entry.status}</p>
  <p>${inlineCode(entry.description)}</p>
</section>`;
}

function page(title: string, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style></head>
<body>
<p><a href="/docs">API reference</a> &middot; <a href="${PROBLEMS_PATH}">All problem types</a></p>
${body}
<p>Problems are RFC 9457 <code>application/problem+json</code> bodies: <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>request_id</code>, and for validation <code>errors: [{pointer, detail}]</code>. Every 4xx and 5xx costs $0.</p>
</body>
</html>`;
}

/** One problem type explained: what a `type` URI in an error body resolves to. */
export function problemPage(slug: ProblemType) {
  return page(`${problemCatalogue[slug].title} · PixelPress problem types`, section(slug));
}

export function problemIndexPage() {
  const slugs = Object.keys(problemCatalogue) as ProblemType[];
  return page("PixelPress problem types", html`<h1>Problem types</h1>${slugs.map(section)}`);
}

/** The catalogue as Markdown for the OpenAPI description, linking each type to its page. */
export function problemTypesMarkdown(): string {
  const rows = (Object.keys(problemCatalogue) as ProblemType[]).map((slug) => {
    const entry = problemCatalogue[slug];
    return `| [\`${slug}\`](${PROBLEMS_PATH}/${slug}) | ${entry.status} | ${entry.title} |`;
  });
  return ["## Problem types", "", `Each error \`type\` is \`${PROBLEM_TYPE_BASE}<slug>\`; the slug links to its explanation.`, "", "| type | status | title |", "|---|---|---|", ...rows].join("\n");
}
