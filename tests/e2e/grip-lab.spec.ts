/** The Grip lab scene in Chromium: palms on the anchors, the rifle drawn solid and the palms in
 * their colours, the hand switch mirrors the hold, and the hash equals the native and Node CLIs. */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, decodePng, dist, open, root, type Vec3 } from './helpers.js';

const SCENE = 'assets/scenes/grip-lab.json';
const STEPS = 240;

test('grip lab: hash after the timeline equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, `?scene=grip-lab.json&steps=${STEPS}&paused=1`);
  const hash = await page.evaluate(() => window.limber!.hash());
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, `tests/expected-hashes.json "grip-lab.json@${STEPS}"`).toBe(expected[`grip-lab.json@${STEPS}`]);
  const native = join(root, 'build/native/limber');
  expect(existsSync(native)).toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});

test('grip lab: palms sit on the anchors; switching the main hand mirrors them through the rifle plane', async ({ page }) => {
  const errors = await open(page, '?scene=grip-lab.json&steps=120&paused=1');
  const before = await page.evaluate(() => window.limber!.grip('hero'));
  expect(before.mainHand).toBe('Right');
  expect(before.mainDistance).toBeLessThan(5e-4);
  expect(before.supportDistance).toBeLessThan(5e-4);
  const rifle = await page.evaluate(() => window.limber!.entityPosition('rifle'));
  await page.evaluate(() => window.limber!.switchHand());
  // Let the 0.25 s blend finish (paused: step explicitly).
  for (let i = 0; i < 20; i++) await page.click('#step');
  const after = await page.evaluate(() => window.limber!.grip('hero'));
  expect(after.mainHand).toBe('Left');
  // The rifle is not rotated: its X plane is x = rifle.x in the world.
  const mirror = (p: Vec3): Vec3 => [2 * rifle[0] - p[0], p[1], p[2]];
  for (const role of ['main', 'support'] as const) {
    expect(dist(after.palms[role]!, mirror(before.palms[role]!)), `${role} palm mirrored`).toBeLessThan(1e-5);
  }
  expect(after.mainDistance).toBeLessThan(5e-4);
  expect(after.supportDistance).toBeLessThan(5e-4);
  await expect(page.locator('#grip-hero')).toContainText('Left');
  expect(errors).toEqual([]);
});

test('grip lab: the rifle (solid surfaces), main palm (yellow) and support palm (blue) are drawn', async ({ page }) => {
  // the palms are a debug layer, off in the showcase view: turned on here
  const errors = await open(page, '?scene=grip-lab.json&steps=60&paused=1&layers=palms');
  await page.waitForTimeout(200);
  const png = decodePng(await page.screenshot());
  const count = (pred: (r: number, g: number, b: number) => boolean): number => {
    let n = 0;
    for (let i = 0; i < png.width * png.height; i++) {
      const p = i * png.channels;
      if (pred(png.pixels[p], png.pixels[p + 1], png.pixels[p + 2])) n++;
    }
    return n;
  };
  // The rifle's surfaces are solid meshes: a mask render of the grip view covers part of the frame.
  const props = await page.evaluate(() => (window.limber as unknown as { showcase(): { props: number } }).showcase().props);
  const yellow = count((r, g, b) => r > 200 && g > 170 && b < 120);
  const blue = count((r, g, b) => b > 200 && g > 160 && r < 120);
  expect(props, 'share of the frame covered by the rifle').toBeGreaterThan(0.01);
  expect(yellow, 'yellow main palm pixels').toBeGreaterThan(20);
  expect(blue, 'blue support palm pixels').toBeGreaterThan(20);
  expect(errors).toEqual([]);
});
