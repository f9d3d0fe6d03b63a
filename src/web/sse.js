// @ts-check
// A Server-Sent Events parser (the WHATWG "event stream" format) for text arriving in chunks of
// any size: feed() takes the next chunk and returns the messages it completed. Pure: no I/O, so
// it is tested on its own (test/api/dashboard.test.ts).

/** @typedef {{id?: string, event?: string, data: string}} SseMessage */

export function sseParser() {
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
        if (line.startsWith(':')) continue;
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
