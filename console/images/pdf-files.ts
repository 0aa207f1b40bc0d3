// A PDF dropped on the Images section belongs to the PDFs section: its pages are images only
// through pg_, which that section draws. Told apart by type or, where the browser gives none, by name.

export function isPdfFile(file: File): boolean {
  return file.type === "application/pdf" || (file.type === "" && /\.pdf$/i.test(file.name));
}

/** The dropped files split into the images this section optimizes and the PDFs it hands on. */
export function splitPdfs(files: File[]): { images: File[]; pdfs: File[] } {
  return { images: files.filter((file) => !isPdfFile(file)), pdfs: files.filter(isPdfFile) };
}
