// A child process for the pool's tests: answers with its process id, or holds its process until it
// is killed ("spin"), as librsvg holds libvips' threads.
export interface ProcessProbeRequest {
  id: number;
  act: "answer" | "spin";
}

process.on("message", (request: ProcessProbeRequest) => {
  if (request.act === "spin") for (;;);
  process.send?.({ id: request.id, pid: process.pid });
});
process.on("disconnect", () => process.exit(0));
