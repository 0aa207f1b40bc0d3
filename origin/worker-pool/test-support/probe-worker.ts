// A worker for the pool's tests: answers with its thread id and how many jobs it has run, or
// misbehaves as the request asks ("spin" holds its thread until it is terminated).
import { parentPort, threadId } from "node:worker_threads";

export interface ProbeRequest {
  id: number;
  act: "answer" | "exit" | "garbage" | "throw" | "spin";
}

let jobs = 0;

parentPort?.on("message", (request: ProbeRequest) => {
  jobs++;
  if (request.act === "exit") process.exit(3);
  if (request.act === "throw") throw new Error("probe worker failed");
  if (request.act === "spin") for (;;);
  if (request.act === "garbage") parentPort?.postMessage("not a reply");
  else parentPort?.postMessage({ id: request.id, threadId, jobs });
});
