/** The corridor-walk scene in Chromium: the mannequin's walk root motion goes through its
 * CharacterController against the corridor's box colliders; the hash after 840 steps equals the
 * stored, native and Node hashes. */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, open, root } from './helpers.js';

const SCENE = 'assets/scenes/corridor-walk.json';
const STEPS = 840;

test('corridor-walk: hash after the walk equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, `?scene=corridor-walk.json&steps=${STEPS}&paused=1`);
  const hash = await page.evaluate(() => (window.limber as unknown as { hash(): string }).hash());
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, `tests/expected-hashes.json "corridor-walk.json@${STEPS}"`).toBe(expected[`corridor-walk.json@${STEPS}`]);
  const native = join(root, 'build/native/limber');
  expect(existsSync(native)).toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  // The character walked the first leg and turned into the second, inside the corridor.
  const p = await page.evaluate(() => window.limber!.entityPosition('hero'));
  expect(p[0]).toBeGreaterThan(6);
  expect(p[2]).toBeGreaterThan(11.4);
  expect(p[2]).toBeLessThan(12.6);
  await expect(page.locator('#hash')).toHaveText(hash);
  expect(errors).toEqual([]);
});
