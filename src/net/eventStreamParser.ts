// A parser of Server-Sent Events (the WHATWG "event stream" format) for text arriving in chunks of
// any size, shared by the CLI (`bridge events tail`) and the tests of GET /events/stream. Pure: no
// I/O. The dashboard reads the stream in the browser (src/web).

interface EventStreamMessage {
  /** The last id the stream gave (it carries over to later messages, as the format says). */
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface EventStreamParser {
  /** Takes the next chunk of text and returns the messages it completed. */
  feed(chunk: string): EventStreamMessage[];
  /** The last id seen, to resume with Last-Event-ID. */
  lastId(): string | undefined;
}

/** `onComment` sees the text of each comment line (`: ...`, e.g. heartbeats), without the colon. */
export function eventStreamParser(onComment?: (text: string) => void): EventStreamParser {
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event: string | undefined;
  return {
    feed(chunk) {
      buffer += chunk;
      const messages: EventStreamMessage[] = [];
      // The last piece may be an unfinished line; a \r at the very end may be half of a \r\n,
      // so it waits for the next chunk with the line it ends.
      const held = buffer.endsWith('\r') ? 1 : 0;
      const lines = buffer.slice(0, buffer.length - held).split(/\r\n|\r|\n/);
      buffer = (lines.pop() ?? '') + (held ? '\r' : '');
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) messages.push({ id, event, data: data.join('\n') });
          data = [];
          event = undefined;
          continue;
        }
        if (line.startsWith(':')) {
          onComment?.(line.slice(1));
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
        else if (field === 'event') event = value;
      }
      return messages;
    },
    lastId: () => id,
  };
}
