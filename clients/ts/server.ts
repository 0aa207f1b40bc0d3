// The server-side entry point: everything in index.ts plus the code that needs a secret: URL
// signing with a key's signing secret and webhook verification with an endpoint's. Import this
// from server code only (Node, Workers, route handlers, SSR); a browser bundle that imports
// index.ts never contains the signing code or a secret.
export * from "./index.ts";
export { createSignedImageUrls, type SignedImageUrlConfig, type SignedImageUrls } from "./images/sign-transform.ts";
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders, type WebhookToVerify } from "../../contracts/webhooks/signature.ts";
