// @ts-check
// The one Server-Sent Events parser (the WHATWG "event stream" format) for text arriving in
// chunks of any size: feed() takes the next chunk and returns the messages it completed. Pure: no
// I/O and no browser API, so the dashboard, the CLI (`bridge events tail`) and the tests of
// GET /events/stream share it; it lives here because the browser loads only src/web.

/** @typedef {{id?: string, event?: string, data: string}} SseMessage */

/**
 * @param {(text: string) => void} [onComment] sees the text of each comment line (`: ...`, e.g.
 *   heartbeats), without the colon
 */
export function sseParser(onComment) {
  let buffer = '';
  /** @type {string[]} */
  let data = [];
  /** @type {string | undefined} */
  let id;
  /** @type {string | undefined} */
  let event;
  return {
    /**
     * @param {string} chunk
     * @returns {SseMessage[]}
     */
    feed(chunk) {
      buffer += chunk;
      /** @type {SseMessage[]} */
      const messages = [];
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
    /** The last id seen, to resume with Last-Event-ID. */
    lastId: () => id,
  };
}
