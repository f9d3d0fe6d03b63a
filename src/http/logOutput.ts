// Where the log goes when no stream is given: stdout through pino's own destination (sonic-boom).
// Synchronous writes: each line is written as it is formed, on the event loop, so log lines never
// wait in a buffer, never interleave with what the commands print on stdout (a created client),
// and none is lost on exit; the asynchronous mode hands every write to the libuv thread pool.
// pino's destination stops logging, instead of ending the process, when the reader goes away (EPIPE).
import pino from 'pino';

/** The log destination on a file descriptor or path, with the options the service uses. */
export function logDestination(dest: number | string): pino.DestinationStream {
  return pino.destination({ dest, sync: true });
}

let stdout: pino.DestinationStream | undefined;

/** The process's one log destination on stdout, shared by every app in the process. */
export function stdoutLines(): pino.DestinationStream {
  stdout ??= logDestination(1);
  return stdout;
}
