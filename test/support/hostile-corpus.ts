import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A window-title escape, a screen clear, a C1 CSI and a right-to-left override, as an attacker writes them. */
export const HOSTILE = '\u001b]0;owned\u0007\u001b[2J\u009b31m\u202e';

/** Any control character or bidirectional override a terminal would act on (newline and tab aside). */
export const TERMINAL_CONTROLS = /(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/**
 * A one-article corpus folder whose title, publisher and text carry `HOSTILE`: "A lighthouse keeper
 * rescued four kayakers off Gravelines on Sunday."
 */
export async function hostileCorpus(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'newsdesk-hostile-'));
  await writeFile(
    join(dir, 'lighthouse.md'),
    `---\ntitle: Lighthouse ${HOSTILE}keeper rescues kayakers\npublisher: Wire${HOSTILE}\n---\n\n` +
      `A lighthouse keeper ${HOSTILE}rescued four kayakers off Gravelines on Sunday.\n`,
  );
  return dir;
}
