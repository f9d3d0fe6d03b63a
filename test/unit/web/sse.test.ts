import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sseParser } from '../../../src/web/sse.js';

describe('sseParser', () => {
  const text =
    ': keep-alive\n\nid: 41\ndata: {"eventType":"A"}\n\nid: 42\r\nevent: event\r\ndata: {"a":\r\ndata: 1}\r\n\r\nretry: 5\nid: 43\n\n';
  const expected = [
    { id: '41', event: undefined, data: '{"eventType":"A"}' },
    { id: '42', event: 'event', data: '{"a":\n1}' },
  ];

  test('messages split across chunks at any point come out whole, with their ids', () => {
    // Every split point, including inside \r\n.
    for (let cut = 0; cut <= text.length; cut += 1) {
      const parser = sseParser();
      const messages = [...parser.feed(text.slice(0, cut)), ...parser.feed(text.slice(cut))];
      assert.deepEqual(messages, expected, `cut at ${cut}`);
      // An id without data moves the position on (nothing to dispatch).
      assert.equal(parser.lastId(), '43');
    }
  });

  test('comment lines go to the comment callback, without their colon', () => {
    const comments: string[] = [];
    const parser = sseParser((comment) => comments.push(comment));
    assert.deepEqual(parser.feed(': connected\n\n:heartbeat\n'), []);
    assert.deepEqual(comments, [' connected', 'heartbeat']);
  });

  test('an id holding NUL is ignored; a field without a colon has an empty value', () => {
    const parser = sseParser();
    assert.deepEqual(parser.feed('id: 7\n\nid: 8\0\ndata\n\n'), [{ id: '7', event: undefined, data: '' }]);
    assert.equal(parser.lastId(), '7');
  });
});
