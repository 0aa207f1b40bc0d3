// One edge pipeline per isolate at a time: concurrent requests would each hold their own codec
// instances and pixel buffers, multiplying the memory the budget was proven for.
let tail: Promise<unknown> = Promise.resolve();

export function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = tail.then(work, work);
  tail = run.catch(() => undefined);
  return run;
}
