import { formatDuration } from "./format.ts";
import { formatByteSize } from "../contracts/byte-size.ts";

export interface ItemOutcome {
  name: string;
  ok: boolean;
  inputBytes: number;
  outputBytes?: number;
  detail: string;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * Counts, bytes saved and ETA. On a terminal one bar redrawn in place; otherwise one plain line
 * per finished item, so logs and pipes stay readable.
 */
export class Progress {
  private readonly stream: ProgressStream;
  private readonly total: number;
  private readonly startedAt = Date.now();
  private done = 0;
  /** Items still running, by name: the fraction of their work done, from their job's progress. */
  private readonly running = new Map<string, number>();
  private failed = 0;
  private saved = 0;

  constructor(stream: ProgressStream, total: number) {
    this.stream = stream;
    this.total = total;
    if (stream.isTTY) this.draw();
  }

  /** An item running as a job reported `done` of `total` units; the bar counts that part of it. */
  update(name: string, done: number, total: number): void {
    this.running.set(name, total > 0 ? Math.min(1, done / total) : 0);
    if (this.stream.isTTY) this.draw();
  }

  finish(outcome: ItemOutcome): void {
    this.running.delete(outcome.name);
    this.done++;
    if (!outcome.ok) this.failed++;
    if (outcome.ok && outcome.outputBytes !== undefined) this.saved += outcome.inputBytes - outcome.outputBytes;
    if (this.stream.isTTY) {
      if (!outcome.ok) this.stream.write(`\r\x1b[2K✗ ${outcome.name}: ${outcome.detail}\n`);
      this.draw();
    } else {
      this.stream.write(`[${this.done}/${this.total}] ${outcome.ok ? "ok" : "FAILED"} ${outcome.name}: ${outcome.detail}\n`);
    }
  }

  end(): void {
    if (this.stream.isTTY) this.stream.write("\n");
  }

  private draw(): void {
    const width = 24;
    const partial = [...this.running.values()].reduce((sum, fraction) => sum + fraction, 0);
    const filled = this.total === 0 ? width : Math.round(((this.done + partial) / this.total) * width);
    const elapsed = Date.now() - this.startedAt;
    const eta = this.done === 0 ? "--" : formatDuration((elapsed / this.done) * (this.total - this.done));
    const failed = this.failed > 0 ? ` · ${this.failed} failed` : "";
    this.stream.write(
      `\r\x1b[2K[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${this.done}/${this.total}${failed} · saved ${formatByteSize(this.saved)} · ETA ${eta}`,
    );
  }
}
