// Every relative link in the README and docs/ leads to a file or folder that exists, so a moved or
// renamed page cannot leave a dead link behind. Anchors (`#section`) are not checked, only the path.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The markdown pages checked: the READMEs and everything under docs/. */
function pages(): string[] {
  const under = (directory: string): string[] =>
    readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return under(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'bench/README.md', ...under('docs')];
}

/** Link targets of a page: inline links, images and link definitions, outside code. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const definitions = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)];
  return [...inline, ...definitions].map((match) => match[1] as string);
}

/** The targets of `page` (a path relative to the repository) that do not resolve. */
export function brokenLinks(page: string, markdown: string, exists = existsSync): string[] {
  return linkTargets(markdown).filter((target) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return false; // URLs, anchors
    const path = decodeURIComponent(target.split('#')[0] as string);
    const absolute = path.startsWith('/') ? join(ROOT, path) : resolve(ROOT, dirname(page), path);
    return relative(ROOT, absolute).startsWith('..') || !exists(absolute);
  });
}

test('every relative link in README.md and docs/ resolves', () => {
  const files = pages();
  assert.ok(files.length > 10, 'the scan sees the docs');
  const broken = files.flatMap((page) =>
    brokenLinks(page, readFileSync(join(ROOT, page), 'utf8')).map((target) => `${page}: ${target}`),
  );
  assert.deepEqual(broken, []);
});

test('a broken link is found, a good one, a URL, an anchor and code are not', () => {
  const page = [
    '[ok](settings.md) [ok with anchor](api.md#paging) ![image](images/dashboard.png)',
    '[gone](nowhere.md) [gone too](../src/missing.ts#L1) [web](https://example.com/x.md) [here](#top)',
    '[outside](../../etc/passwd)',
    '[ref]: resources/missing.md',
    '`[code span](code.md)`',
    '```md',
    '[in a code block](block.md)',
    '```',
  ].join('\n');
  assert.deepEqual(brokenLinks('docs/page.md', page), [
    'nowhere.md',
    '../src/missing.ts#L1',
    '../../etc/passwd',
    'resources/missing.md',
  ]);
});
