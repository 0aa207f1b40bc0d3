// The client's <img> and <picture> attributes written out as HTML a person pastes into a page.
import type { ImgAttributes, PictureAttributes } from "../../clients/ts/images/img-attributes.ts";

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function attributes(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}="${escapeAttribute(String(value))}"`)
    .join(" ");
}

export function imgSnippet(img: ImgAttributes, alt: string): string {
  return `<img ${attributes({ src: img.src, srcset: img.srcset, sizes: img.sizes, width: img.width, height: img.height, alt, loading: "lazy", decoding: "async" })}>`;
}

export function pictureSnippet(picture: PictureAttributes, alt: string): string {
  const sources = picture.sources.map((source) => `  <source ${attributes({ type: source.type, srcset: source.srcset, sizes: source.sizes })}>`);
  return ["<picture>", ...sources, `  ${imgSnippet(picture.img, alt)}`, "</picture>"].join("\n");
}
