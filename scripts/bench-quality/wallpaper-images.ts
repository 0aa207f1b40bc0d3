// The second set auto quality is judged on, which it was never tuned on: the twelve nature photos
// of Debian's `mate-backgrounds` package (/usr/share/backgrounds/mate/nature, 1280x1024 to
// 2560x1920 JPEGs). Benches are not in CI, so nothing installs it: `apt-get install
// mate-backgrounds` on the machine that runs the bench (46 MB).
import fs from "node:fs";
import path from "node:path";
import type { CorpusImage } from "./corpus-images.ts";

export const WALLPAPER_PACKAGE = "mate-backgrounds";
const WALLPAPER_DIR = "/usr/share/backgrounds/mate/nature";

/** The package's nature photos, in name order; none when the package is not installed. */
export function wallpaperImages(): CorpusImage[] {
  if (!fs.existsSync(WALLPAPER_DIR)) return [];
  return fs
    .readdirSync(WALLPAPER_DIR)
    .filter((file) => /\.jpe?g$/i.test(file))
    .sort()
    .map((file) => ({
      name: `${WALLPAPER_PACKAGE}/${file}`,
      kind: "photo",
      read: () => fs.promises.readFile(path.join(WALLPAPER_DIR, file)).then((bytes) => new Uint8Array(bytes)),
    }));
}
