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

test('corridor-walk: the colliders and controllers debug layers draw every collider and the capsule where the core has it', async ({ page }) => {
  const errors = await open(page, `?scene=corridor-walk.json&steps=120&paused=1`);
  type LayerApi = { layers: { ids(): string[]; visible(id: string): boolean; show(id: string, on: boolean): void } };
  const doc = JSON.parse(readFileSync(join(root, SCENE), 'utf8')) as { entities: { components?: { Collider?: { shape?: string } } }[] };
  const primitives = doc.entities.filter((e) => e.components?.Collider && e.components.Collider.shape !== 'Mesh').length;
  expect(primitives).toBe(12);
  const ids = await page.evaluate(() => (window.limber as unknown as LayerApi).layers.ids());
  expect(ids).toContain('colliders');
  expect(ids).toContain('controllers');
  expect(await page.evaluate(() => (window.limber as unknown as LayerApi).layers.visible('colliders')), 'colliders start hidden').toBe(false);
  await page.evaluate(() => (window.limber as unknown as LayerApi).layers.show('colliders', true));
  const drawn = await page.evaluate(() => {
    const scene = window.limber!.three.scene as { getObjectByName(n: string): { visible: boolean; children: unknown[] } | undefined };
    const layer = scene.getObjectByName('layer:colliders');
    return layer ? { visible: layer.visible, count: layer.children.length } : null;
  });
  expect(drawn).toEqual({ visible: true, count: primitives });
  // The capsule is drawn at the hero's position + the controller's applied centre (0.9 m up).
  expect(await page.evaluate(() => (window.limber as unknown as LayerApi).layers.visible('controllers')), 'controllers start hidden').toBe(false);
  await page.evaluate(() => (window.limber as unknown as LayerApi).layers.show('controllers', true));
  const capsule = await page.evaluate(() => {
    const scene = window.limber!.three.scene as { getObjectByName(n: string): { visible: boolean; children: { position: { x: number; y: number; z: number } }[] } | undefined };
    const layer = scene.getObjectByName('layer:controllers');
    const p = layer?.children[0]?.position;
    return layer && p ? { visible: layer.visible, at: [p.x, p.y, p.z] } : null;
  });
  const hero = await page.evaluate(() => window.limber!.entityPosition('hero'));
  expect(capsule?.visible).toBe(true);
  expect(Math.hypot(capsule!.at[0]! - hero[0], capsule!.at[1]! - (hero[1] + 0.9), capsule!.at[2]! - hero[2]), 'capsule centre (m)').toBeLessThan(1e-4);
  expect(errors).toEqual([]);
});
