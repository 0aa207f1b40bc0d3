// A dropped file's bytes as the API's inline source takes them, and a result's inline bytes as
// something an <img> or a download link can point at.

export function fileAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = reader.result as string;
      resolve(dataUrl.slice(dataUrl.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file instanceof File ? file.name : "the file"}`));
    reader.readAsDataURL(file);
  });
}

export function base64AsObjectUrl(base64: string, contentType: string): string {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: contentType }));
}

/** The file as a URL the page can show, or null when this browser cannot decode it (TIFF in most). */
export async function decodableUrl(file: Blob): Promise<string | null> {
  const url = URL.createObjectURL(file);
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return url;
  } catch {
    URL.revokeObjectURL(url);
    return null;
  }
}
