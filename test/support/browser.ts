import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it), or
 * CHROMIUM_PATH. Nothing is downloaded: without a browser the test fails
 * saying what to install, it is never skipped.
 */
export function chromiumPath(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '').split(delimiter).flatMap((dir) => ['chromium', 'chromium-browser'].map((name) => join(dir, name)));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`No Chromium found (looked for ${candidates.slice(0, 4).join(', ')}…): install it with \`apt-get install chromium\` or set CHROMIUM_PATH`);
  return found;
}

/** One headless Chromium for a test file. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}
