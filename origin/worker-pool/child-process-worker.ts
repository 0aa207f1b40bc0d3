// A child process that a WorkerPool runs jobs in as it would in a worker thread. Terminating a
// thread stops only its JavaScript: libvips (sharp, librsvg) works on threads of its own, which
// run on. Killing a process stops all of them, so work done by sharp that can run far past a
// step's time (drawing an SVG) runs here, where the deadline really ends it.
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import type { PoolWorker } from "./worker-pool.ts";

export class ChildProcessWorker extends EventEmitter implements PoolWorker {
  readonly #child: ChildProcess;
  #exited = false;

  constructor(moduleUrl: URL) {
    super();
    // "advanced" serialization carries typed arrays as bytes, not as JSON objects of numbers.
    this.#child = fork(fileURLToPath(moduleUrl), [], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.#child.on("message", (message) => this.emit("message", message));
    this.#child.on("error", (error) => this.emit("error", error));
    this.#child.once("exit", (code) => {
      this.#exited = true;
      this.emit("exit", code ?? 1);
    });
  }

  postMessage(message: unknown): void {
    this.#child.send(message as object);
  }

  async terminate(): Promise<void> {
    if (this.#exited) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.kill("SIGKILL");
    await exited;
  }

  ref(): void {
    this.#child.ref();
    this.#child.channel?.ref();
  }

  unref(): void {
    this.#child.unref();
    this.#child.channel?.unref();
  }
}
