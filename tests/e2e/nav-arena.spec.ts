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

type V3 = [number, number, number];
interface NavAgentView {
  driveMode: string;
  destination: V3;
  hasDestination: boolean;
  arrived: boolean;
  pathStatus: string;
  remainingDistance: number;
  locomotionValue: number;
  turnAngle: number;
  steeringTarget: V3;
  position: V3;
  path: V3[];
}
interface NavPage {
  nav: { agents(): string[]; selected(): string | null; agent(name?: string): NavAgentView; meshPoint(p: V3, name?: string): V3 } | null;
  layers: { ids(): string[]; visible(id: string): boolean };
  screenPosition(p: V3): [number, number];
  advance(n: number): void;
}
const flat = (a: V3, b: V3): number => Math.hypot(a[0] - b[0], a[2] - b[2]);

test('nav-arena: a click on the navmesh sends the selected agent there; the drive-mode switch sets driveMode', async ({ page }) => {
  const errors = await open(page, '?scene=nav-arena.json&paused=1&steps=1');
  const nav = () => page.evaluate(() => (window.limber as unknown as NavPage).nav !== null);
  expect(await nav()).toBe(true);
  const layers = await page.evaluate(() => {
    const l = (window.limber as unknown as NavPage).layers;
    return { ids: l.ids(), on: l.visible('nav') };
  });
  expect(layers.ids).toContain('nav');
  expect(layers.on).toBe(true);
  expect(await page.evaluate(() => (window.limber as unknown as NavPage).nav!.selected())).toBe('walker');
  const before = await page.evaluate(() => (window.limber as unknown as NavPage).nav!.agent());
  expect(flat(before.destination, [7.5, 0, 7.5])).toBeLessThan(1e-6);

  // A point of the navmesh near the walker that is on screen, on the canvas (not under the HUD).
  const pick = await page.evaluate(() => {
    const api = window.limber as unknown as NavPage;
    const here = api.nav!.agent().position;
    const canvas = document.querySelector('#view canvas');
    for (const r of [2.5, 2, 1.5]) {
      for (let k = 0; k < 16; k++) {
        const a = (k / 16) * 2 * Math.PI;
        const q: V3 = [here[0] + r * Math.sin(a), 0, here[2] + r * Math.cos(a)];
        const p = api.nav!.meshPoint(q);
        if (Math.hypot(p[0] - q[0], p[2] - q[2]) > 0.01) continue; // off the mesh: inside points only
        const s = api.screenPosition(p);
        if (s[0] < 20 || s[1] < 20 || s[0] > innerWidth - 20 || s[1] > innerHeight - 20) continue;
        if (document.elementFromPoint(s[0], s[1]) !== canvas) continue;
        return { p, s };
      }
    }
    return null;
  });
  expect(pick, 'a navmesh point near the walker visible on the canvas').not.toBeNull();
  const { p, s } = pick!;
  await page.mouse.click(s[0], s[1]);
  const sent = await page.evaluate(() => (window.limber as unknown as NavPage).nav!.agent());
  const miss = Math.hypot(sent.destination[0] - p[0], sent.destination[1] - p[1], sent.destination[2] - p[2]);
  console.log(`clicked the navmesh at (${p.map((v) => v.toFixed(3)).join(', ')}): destination set ${miss.toFixed(4)} m from it; path of ${sent.path.length} corners`);
  expect(miss).toBeLessThan(0.3);
  expect(sent.hasDestination).toBe(true);
  expect(sent.path.length).toBeGreaterThanOrEqual(2);
  expect(flat(sent.path[sent.path.length - 1]!, sent.destination)).toBeLessThan(0.3);

  // It walks there: nearer after one second, arrived within stoppingDistance (0.1 m) in time.
  const d0 = flat(sent.position, sent.destination);
  const after = await page.evaluate(() => {
    const api = window.limber as unknown as NavPage;
    api.advance(60);
    return api.nav!.agent();
  });
  const d1 = flat(after.position, after.destination);
  console.log(`walker: ${d0.toFixed(3)} m from the destination, ${d1.toFixed(3)} m after 60 steps; speed parameter ${after.locomotionValue.toFixed(3)}, turn ${after.turnAngle.toFixed(2)} deg`);
  expect(d0 - d1).toBeGreaterThan(0.8); // 1.4 m/s for 1 s, less the turn and corners
  expect(await page.textContent('#nav-speed')).toBe(after.locomotionValue.toFixed(2));
  expect(await page.textContent('#nav-turn')).toBe(`${after.turnAngle.toFixed(1)}°`);
  const end = await page.evaluate(() => {
    const api = window.limber as unknown as NavPage;
    for (let i = 0; i < 20 && !api.nav!.agent().arrived; i++) api.advance(30);
    return api.nav!.agent();
  });
  console.log(`walker arrived: ${end.arrived}, ${flat(end.position, end.destination).toFixed(4)} m from the clicked point`);
  expect(end.arrived).toBe(true);
  expect(flat(end.position, end.destination)).toBeLessThan(0.1 + 0.01);

  // Drive modes through the HUD's switch.
  expect(await page.inputValue('#nav-drive')).toBe('NavDestination');
  await page.selectOption('#nav-drive', 'Both');
  expect(await page.evaluate(() => (window.limber as unknown as NavPage).nav!.agent('walker').driveMode)).toBe('Both');
  await page.selectOption('#nav-agent', 'strider');
  expect(await page.evaluate(() => (window.limber as unknown as NavPage).nav!.selected())).toBe('strider');
  expect(await page.inputValue('#nav-drive')).toBe('Both');
  await page.selectOption('#nav-drive', 'RootMotion');
  const modes = await page.evaluate(() => {
    const n = (window.limber as unknown as NavPage).nav!;
    return [n.agent('walker').driveMode, n.agent('strider').driveMode];
  });
  expect(modes).toEqual(['Both', 'RootMotion']);
  expect(errors).toEqual([]);
});
