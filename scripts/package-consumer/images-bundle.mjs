// What a page bundles for responsive images: scripts/check-packages.sh bundles this with esbuild
// for the browser and fails past the size budget.
import { createImageUrls } from "@pixelpress/client/images";

const urls = createImageUrls({ baseUrl: "https://img.example.com", keyId: "key_pub" });
document.body.append(Object.assign(document.createElement("img"), urls.imgAttributes("file_abc", { width: 400, widths: [400, 800] })));
