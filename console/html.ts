// Preact components written as tagged templates: no JSX step, no compiler beyond esbuild's bundling.
import htm from "htm";
import { h } from "preact";

export const html = htm.bind(h);
