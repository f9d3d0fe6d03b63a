// The real browser of the browser tests: Debian's chromium driven by playwright-core (no browser
// downloads), started with the flags this machine's closed network needs.
import { execFileSync } from 'node:child_process';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium, or undefined when it is not installed (CI installs it: see .ci/run). */
export function findChromium(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Headless chromium without background traffic (it would be refused here, many times over). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
