// The customer's webhook endpoint on loopback: checks every delivery's Standard Webhooks signature,
// processes each `webhook-id` once (a redelivery is acknowledged, not processed again) and, to put
// the edge's retry schedule to work, answers 503 to the first delivery of every fifth event.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "../../contracts/webhooks/signature.ts";

export interface ProcessedEvent {
  webhookId: string;
  jobId: string;
  type: string;
  /** Deliveries of this webhook-id the receiver saw, including refused and duplicate ones. */
  deliveries: number;
  /** Times it was processed: the customer's guarantee is exactly one. */
  processed: number;
}

export interface WebhookReceiver {
  url: string;
  events: Map<string, ProcessedEvent>;
  badSignatures: number;
  close(): Promise<void>;
}

const FAIL_FIRST_DELIVERY_EVERY = 5;

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const events = new Map<string, ProcessedEvent>();
  let firstDeliveries = 0;
  const receiver: WebhookReceiver = { url: "", events, badSignatures: 0, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.once("end", () =>
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        try {
          await verifyWebhook({ headers: req.headers, body, secret });
        } catch {
          receiver.badSignatures++;
          res.writeHead(400).end();
          return;
        }
        const webhookId = String(req.headers["webhook-id"]);
        const payload = JSON.parse(body) as { type: string; data: { job_id: string } };
        let event = events.get(webhookId);
        if (!event) {
          event = { webhookId, jobId: payload.data.job_id, type: payload.type, deliveries: 0, processed: 0 };
          events.set(webhookId, event);
          if (++firstDeliveries % FAIL_FIRST_DELIVERY_EVERY === 0) {
            event.deliveries++;
            res.writeHead(503).end();
            return;
          }
        }
        event.deliveries++;
        if (event.processed === 0) event.processed++;
        res.writeHead(204).end();
      })(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
