/** The playground in Chromium: it loads cleanly, draws something, gives the same
 * hash as the native and Node CLIs, and dragging a target moves the hand. */
import { expect, test, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, decodePng, dist, len, open, root, type Vec3 } from './helpers.js';

const SCENE = 'assets/scenes/default.json';

test('loads without console errors or page errors, and steps live', async ({ page }) => {
  const errors = await open(page);
  await page.waitForFunction(() => (window.limber?.steps() ?? 0) > 10, null, { timeout: 20_000 });
  expect(await page.evaluate(() => window.limber!.paused())).toBe(false);
  await expect(page.locator('#ik-rightArm .reached')).toHaveText(/yes|no/);
  await page.waitForTimeout(300);
  expect(errors).toEqual([]);
});

test('renders a non-blank picture', async ({ page }) => {
  const errors = await open(page, '?steps=120&paused=1');
  await page.waitForTimeout(200);
  const png = decodePng(await page.screenshot());
  const { width, height, channels, pixels } = png;
  const counts = new Map<number, number>();
  for (let i = 0; i < width * height; i++) {
    const p = i * channels;
    const key = (pixels[p] << 16) | (pixels[p + 1] << 8) | pixels[p + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const most = Math.max(...counts.values());
  expect(counts.size, 'distinct colours').toBeGreaterThan(200);
  expect(most / (width * height), 'share of the most common colour').toBeLessThan(0.9);
  // The canvas itself (not just the HUD) has content: read back the WebGL drawing.
  const canvasColours = await page.evaluate(() => {
    const c = window.limber!.three.renderer;
    c.render(window.limber!.three.scene, window.limber!.three.camera);
    const gl = c.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const buf = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, buf);
    const seen = new Set<number>();
    for (let i = 0; i < buf.length; i += 4) seen.add((buf[i] << 16) | (buf[i + 1] << 8) | buf[i + 2]);
    return seen.size;
  });
  expect(canvasColours, 'distinct colours in the WebGL canvas').toBeGreaterThan(50);
  expect(errors).toEqual([]);
});

test('?steps=120&paused=1 gives the stored hash, the native CLI hash and the Node CLI hash', async ({ page }) => {
  const errors = await open(page, '?steps=120&paused=1');
  await expect(page.locator('#steps')).toHaveText('120');
  const hash = (await page.textContent('#hash'))!.trim();
  expect(hash).toMatch(/^[0-9a-f]{16}$/);
  // Paused: time passes, nothing steps.
  await page.waitForTimeout(400);
  expect(await page.evaluate(() => [window.limber!.steps(), window.limber!.hash()])).toEqual([120, hash]);
  await expect(page.locator('#hash')).toHaveText(hash);

  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, 'tests/expected-hashes.json "default.json@120"').toBe(expected['default.json@120']);

  const native = join(root, 'build/native/limber');
  expect(existsSync(native), 'build/native/limber (run `node scripts/build.mjs native`)').toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', '120']), 'native CLI').toBe(hash);

  const nodeCli = join(root, 'dist/web/cli/limber.js');
  expect(existsSync(nodeCli), 'dist/web/cli/limber.js (run `node scripts/build.mjs wasm ts`)').toBe(true);
  expect(cliHash(process.execPath, [nodeCli, 'hash', SCENE, '--steps', '120']), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});

/** Right arm: shoulder (upper-arm joint) position and the arm's length. */
async function rightArm(page: Page): Promise<{ shoulder: Vec3; length: number }> {
  const [a, b, c] = await page.evaluate(() => ['RightArm', 'RightForeArm', 'RightHand'].map((n) => window.limber!.handPosition(n)));
  return { shoulder: a, length: dist(a, b) + dist(b, c) };
}

test('a mouse drag on the gizmo moves the right target and the hand follows', async ({ page }) => {
  // Past the timeline's last command (step 120), so nothing else moves the target.
  const errors = await open(page, '?steps=130&paused=1');
  expect(await page.evaluate(() => window.limber!.selected())).toBe('rightTarget');
  const target0 = await page.evaluate(() => window.limber!.entityPosition('rightTarget'));
  const hand0 = await page.evaluate(() => window.limber!.handPosition('RightHand'));
  expect(dist(hand0, target0)).toBeLessThan(1e-3);

  // The gizmo's centre handle (free move in the view plane) sits on the target.
  const [x, y] = await page.evaluate((p) => window.limber!.screenPosition(p), target0);
  await page.mouse.move(x, y);
  await expect.poll(() => page.evaluate(() => window.limber!.gizmoAxis())).not.toBeNull();
  await page.mouse.down();
  await page.mouse.move(x - 25, y - 15, { steps: 5 });
  await page.mouse.move(x - 50, y - 30, { steps: 5 });
  await page.mouse.up();

  const target1 = await page.evaluate(() => window.limber!.entityPosition('rightTarget'));
  const hand1 = await page.evaluate(() => window.limber!.handPosition('RightHand'));
  expect(dist(target1, target0), 'target moved').toBeGreaterThan(0.05);
  expect(dist(hand1, hand0), 'hand moved').toBeGreaterThan(0.05);
  const arm = await rightArm(page);
  expect(dist(target1, arm.shoulder), 'the drag kept the target within reach').toBeLessThan(arm.length - 0.005);
  expect(dist(hand1, target1), 'hand on the new target').toBeLessThan(1e-3);
  await expect(page.locator('#ik-rightArm .reached')).toHaveText('yes');
  expect(errors).toEqual([]);
});

test('limber.dragTarget moves either hand onto a reachable target', async ({ page }) => {
  const errors = await open(page, '?steps=130&paused=1');
  for (const [target, joint, to] of [
    ['rightTarget', 'RightHand', [-0.32, 1.15, 0.4]],
    ['leftTarget', 'LeftHand', [0.25, 1.2, 0.38]],
  ] as [string, string, Vec3][]) {
    const before = await page.evaluate((j) => window.limber!.handPosition(j), joint);
    const steps = await page.evaluate(() => window.limber!.steps());
    await page.evaluate(([t, p]) => window.limber!.dragTarget(t, p), [target, to] as [string, Vec3]);
    expect(await page.evaluate(() => window.limber!.steps())).toBe(steps + 1);
    const after = await page.evaluate((j) => window.limber!.handPosition(j), joint);
    expect(dist(after, before), `${joint} moved`).toBeGreaterThan(0.05);
    expect(dist(after, to), `${joint} on its target`).toBeLessThan(1e-3);
  }
  expect(errors).toEqual([]);
});

// Regression: an out-of-reach target off the model axes once left the straight
// arm pointing elsewhere (the hint twist was taken from a near-zero elbow offset).
test('an out-of-reach target straightens the arm towards it', async ({ page }) => {
  const errors = await open(page, '?steps=130&paused=1');
  const arm = await rightArm(page);
  const dir: Vec3 = [0.2, 0.1, 1];
  const k = 0.6 / len(dir);
  const to: Vec3 = [arm.shoulder[0] + dir[0] * k, arm.shoulder[1] + dir[1] * k, arm.shoulder[2] + dir[2] * k];
  await page.evaluate((p) => window.limber!.dragTarget('rightTarget', p), to);
  const hand = await page.evaluate(() => window.limber!.handPosition('RightHand'));
  const k2 = arm.length / len(dir);
  const straight: Vec3 = [arm.shoulder[0] + dir[0] * k2, arm.shoulder[1] + dir[1] * k2, arm.shoulder[2] + dir[2] * k2];
  expect(dist(hand, straight), 'hand on the line to the target, at full reach').toBeLessThan(2e-3);
  await expect(page.locator('#ik-rightArm .reached')).toHaveText('no');
  expect(errors).toEqual([]);
});
