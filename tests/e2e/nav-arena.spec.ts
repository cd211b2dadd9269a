/** The nav arena in Chromium: six NavAgents (every drive mode) on the Recast-baked navmesh,
 * fetched as a scene file; the hash after 600 steps equals the stored, native and Node hashes. */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, open, root } from './helpers.js';

const SCENE = 'assets/scenes/nav-arena.json';
const STEPS = 600;

test('nav-arena: hash after 600 steps equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, `?scene=nav-arena.json&steps=${STEPS}&paused=1`);
  const hash = await page.evaluate(() => (window.limber as unknown as { hash(): string }).hash());
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, `tests/expected-hashes.json "nav-arena.json@${STEPS}"`).toBe(expected[`nav-arena.json@${STEPS}`]);
  const native = join(root, 'build/native/limber');
  expect(existsSync(native)).toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});
