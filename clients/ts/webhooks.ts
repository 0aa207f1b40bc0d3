// The webhook entry (`@pixelpress/client/webhooks`): verifies a delivery with the endpoint's
// secret, by the same function the API signs with. Server code only.
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders, type WebhookToVerify } from "../../contracts/webhooks/signature.ts";
