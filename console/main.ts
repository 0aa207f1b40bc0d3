import { render } from "preact";
import { App } from "./app.ts";
import { html } from "./html.ts";

render(html`<${App} />`, document.getElementById("console")!);
