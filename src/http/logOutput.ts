// Where the log goes when no stream is given: stdout, one write per turn of the event loop.
// pino's default destination writes each line with an asynchronous fs.write on the libuv thread
// pool: a hand-over to another thread (and back) for every line, which cost the request path more
// than forming the line. Here the lines of one turn are joined and written once, right after it.

const FLUSH_AT = 64 * 1024; // a burst is written at once rather than held in memory

export class LineBatcher {
  readonly #out: (text: string) => void;
  #pending = '';
  #scheduled = false;

  constructor(out: (text: string) => void) {
    this.#out = out;
  }

  write(line: string): void {
    this.#pending += line;
    if (this.#pending.length >= FLUSH_AT) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flushScheduled);
    }
  }

  /** Writes what is pending now (also on process exit, so the last lines are not lost). */
  flush(): void {
    if (this.#pending === '') return;
    const text = this.#pending;
    this.#pending = '';
    this.#out(text);
  }

  readonly #flushScheduled = () => {
    this.#scheduled = false;
    this.flush();
  };
}

let stdout: LineBatcher | undefined;

/** The process's one batcher on stdout (writes to files and pipes are synchronous on Linux). */
export function stdoutLines(): LineBatcher {
  if (stdout === undefined) {
    // As pino's destination: a reader gone away (EPIPE) silences the log instead of ending the process.
    let closed = false;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      closed = true;
    });
    const batcher = new LineBatcher((text) => {
      if (!closed) process.stdout.write(text);
    });
    process.once('exit', () => batcher.flush());
    stdout = batcher;
  }
  return stdout;
}
