// What a file made from another is called, wherever it is named: the name the service stores an
// output under (and the Files list shows), the console's download and the CLI's output file. The
// source's name without its extension, then what was done, then the output's extension.

/** The extension each image output format is written with. */
const IMAGE_EXTENSIONS = { jpeg: "jpg", webp: "webp", avif: "avif", png: "png" } as const;

export type NamedImageFormat = keyof typeof IMAGE_EXTENSIONS;

/** `scan.final.pdf` → `scan.final`; a name that is all extension, or none, gives `fallback`. */
function stemOf(name: string | null, fallback: string): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  return base.replace(/\.[^.]*$/, "") || fallback;
}

/** `photo.png` optimized to WebP is `photo.webp`: an image keeps its name in its new format. */
export function optimizedImageName(sourceName: string | null, format: NamedImageFormat): string {
  return `${stemOf(sourceName, "image")}.${IMAGE_EXTENSIONS[format]}`;
}

/** `report.pdf` compressed is `report.compressed.pdf`, whatever the profile. */
export function compressedPdfName(sourceName: string | null): string {
  return `${stemOf(sourceName, "document")}.compressed.pdf`;
}
