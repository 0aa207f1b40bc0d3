import type { QueueMessage } from "../jobs/job-message.ts";

export interface RecordedMessage {
  body: QueueMessage;
  delaySeconds: number;
}

/**
 * The job queue with what is sent to it kept in `sent` instead of delivered: a message the real
 * queue would deliver after the test's file has ended (a retry some seconds away) would run in
 * whatever file runs then, and the test pool stops the whole run when a module is asked for by a
 * file that has ended.
 */
export function recordingQueue(queue: Queue<QueueMessage>, sent: RecordedMessage[]): Queue<QueueMessage> {
  return new Proxy(queue, {
    get(target, property) {
      if (property === "send") return (body: QueueMessage, options?: QueueSendOptions) => Promise.resolve(void sent.push({ body, delaySeconds: options?.delaySeconds ?? 0 }));
      if (property === "sendBatch") {
        return (messages: Iterable<MessageSendRequest<QueueMessage>>) => Promise.resolve(void sent.push(...[...messages].map((m) => ({ body: m.body, delaySeconds: m.delaySeconds ?? 0 }))));
      }
      return Reflect.get(target, property, target) as unknown;
    },
  });
}
