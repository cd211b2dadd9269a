/** The locomotion scene in Chromium: the Mixamo mannequin loaded from its glTF file plays the
 * Locomotion blend space and the Vault one-shot; the hash after the timeline equals the stored,
 * native and Node hashes; the speed slider drives MoveSpeed and the character goes faster. */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, open, root, type Vec3 } from './helpers.js';

const SCENE = 'assets/scenes/locomotion.json';
const STEPS = 480;

/** The part of window.limber (web/playground/api.ts) this spec adds to helpers.ts's. */
interface AnimatorApi {
  hash(): string;
  animator(name?: string): { state: string; params: Record<string, number | boolean>; position: Vec3 };
  advance(n: number): void;
}

const horizontal = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[2] - b[2]);

test('locomotion: hash after the timeline equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, `?scene=locomotion.json&steps=${STEPS}&paused=1`);
  const hash = await page.evaluate(() => (window.limber as unknown as { hash(): string }).hash());
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, `tests/expected-hashes.json "locomotion.json@${STEPS}"`).toBe(expected[`locomotion.json@${STEPS}`]);
  const native = join(root, 'build/native/limber');
  expect(existsSync(native)).toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  await expect(page.locator('#hash')).toHaveText(hash);
  expect(errors).toEqual([]);
});

test('locomotion: the speed slider sets MoveSpeed and the character moves faster; Vault plays and returns', async ({ page }) => {
  const errors = await open(page, `?scene=locomotion.json&steps=${STEPS}&paused=1`);
  await expect(page.locator('#anim-state')).toHaveText('Locomotion');
  const slider = page.locator('#speed');
  await expect(slider).toBeVisible();
  expect(await slider.getAttribute('max')).toBe('3.5');
  // After the timeline MoveSpeed is 0.7: one second of walking slowly.
  const before = await page.evaluate(() => (window.limber as unknown as AnimatorApi).animator());
  expect(before.params.MoveSpeed).toBeCloseTo(0.7, 6);
  await expect(page.locator('#speed-value')).toHaveText('0.70');
  await page.evaluate(() => (window.limber as unknown as AnimatorApi).advance(60));
  const slow = await page.evaluate(() => (window.limber as unknown as AnimatorApi).animator());
  const slowDistance = horizontal(slow.position, before.position);
  // The slider: full speed.
  await slider.fill('3.5');
  await expect(page.locator('#speed-value')).toHaveText('3.50');
  expect((await page.evaluate(() => (window.limber as unknown as AnimatorApi).animator())).params.MoveSpeed).toBe(3.5);
  await page.evaluate(() => (window.limber as unknown as AnimatorApi).advance(60));
  const fast = await page.evaluate(() => (window.limber as unknown as AnimatorApi).animator());
  const fastDistance = horizontal(fast.position, slow.position);
  console.log(`1 s at MoveSpeed 0.7: ${slowDistance.toFixed(3)} m; 1 s at 3.5 (slider): ${fastDistance.toFixed(3)} m`);
  // idle (2 s cycle) and walk (1 s) half and half share a 1.5 s cycle: 0.7 m per 1.5 s.
  expect(slowDistance).toBeGreaterThan(0.4);
  expect(slowDistance).toBeLessThan(0.8);
  expect(fastDistance).toBeGreaterThan(3.2);
  expect(fastDistance).toBeLessThan(3.6);
  // The trigger button starts the one-shot; it returns to Locomotion.
  await page.click('#trigger-Vault');
  await page.evaluate(() => (window.limber as unknown as AnimatorApi).advance(1));
  await expect(page.locator('#anim-state')).toHaveText('Vault');
  await page.evaluate(() => (window.limber as unknown as AnimatorApi).advance(60));
  await expect(page.locator('#anim-state')).toHaveText('Locomotion');
  expect(errors).toEqual([]);
});
