/** The crowd scene in Chromium (assets/scenes/crowd.json: 100 NavAgents with rigs crossing the nav
 * arena): its hash after 480 steps equals the stored, native and Node hashes; the crowd layer
 * (web/playground/crowd.ts) is on, draws neighbour links and path / actual velocity arrows with
 * the agents in frame, and its checkbox hides it. The screenshot is kept in test-results/. */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, decodePng, open, root } from './helpers.js';

const SCENE = 'assets/scenes/crowd.json';
const STEPS = 480;

type V3 = [number, number, number];
interface CrowdPage {
  hash(): string;
  nav: {
    agents(): string[];
    agent(name?: string): { position: V3 };
    crowd(): { visible: boolean; links: number; preferredArrows: number; actualArrows: number };
  } | null;
  layers: { ids(): string[]; visible(id: string): boolean };
  screenPosition(p: V3): [number, number];
}

test('crowd: hash after 480 steps equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, `?scene=crowd.json&steps=${STEPS}&paused=1`);
  const hash = await page.evaluate(() => (window.limber as unknown as CrowdPage).hash());
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  expect(hash, `tests/expected-hashes.json "crowd.json@${STEPS}"`).toBe(expected[`crowd.json@${STEPS}`]);
  const native = join(root, 'build/native/limber');
  expect(existsSync(native)).toBe(true);
  expect(cliHash(native, ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});

test('crowd: the crowd layer draws neighbour links and velocity arrows over the agents, and its checkbox hides it', async ({ page }, info) => {
  const errors = await open(page, '?scene=crowd.json&steps=240&paused=1');
  const state = await page.evaluate(() => {
    const api = window.limber as unknown as CrowdPage;
    const canvas = document.querySelector('#view canvas');
    const names = api.nav!.agents();
    let inFrame = 0;
    for (const n of names) {
      const s = api.screenPosition(api.nav!.agent(n).position);
      if (s[0] >= 0 && s[1] >= 0 && s[0] < innerWidth && s[1] < innerHeight && document.elementFromPoint(s[0], s[1]) === canvas) inFrame++;
    }
    return { ids: api.layers.ids(), crowd: api.nav!.crowd(), agents: names.length, inFrame };
  });
  console.log(`crowd layer after 240 steps: ${state.crowd.links} neighbour links, ${state.crowd.preferredArrows} path and ${state.crowd.actualArrows} actual velocity arrows; ${state.inFrame} of ${state.agents} agents on the canvas, not under the HUD`);
  expect(state.ids).toContain('crowd');
  expect(state.crowd.visible).toBe(true);
  expect(state.crowd.links).toBeGreaterThan(0);
  expect(state.crowd.preferredArrows).toBeGreaterThan(0);
  expect(state.crowd.actualArrows).toBeGreaterThan(0);
  expect(state.inFrame).toBeGreaterThanOrEqual(90);

  // The links are drawn: pixels of the link colours (orange, grey) on the canvas.
  const file = info.outputPath('crowd-layer.png');
  const png = decodePng(await page.locator('#view canvas').screenshot({ path: file }));
  const orange = countPixels(png, (r, g, b) => r > 200 && g > 100 && g < 170 && b < 90);
  const green = countPixels(png, (r, g, b) => g > 200 && r > 90 && r < 160 && b < 60);
  console.log(`screenshot ${file}: ${orange} orange (avoiding) link pixels, ${green} green (actual velocity) arrow pixels`);
  expect(orange).toBeGreaterThan(50);
  expect(green).toBeGreaterThan(20);

  await page.locator('#show-crowd').uncheck();
  const hidden = await page.evaluate(() => (window.limber as unknown as CrowdPage).nav!.crowd().visible);
  expect(hidden).toBe(false);
  const without = decodePng(await page.locator('#view canvas').screenshot());
  expect(countPixels(without, (r, g, b) => r > 200 && g > 100 && g < 170 && b < 90)).toBeLessThan(orange / 4);
  expect(errors).toEqual([]);
});

function countPixels(png: ReturnType<typeof decodePng>, match: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < png.width * png.height; i++) {
    const o = i * png.channels;
    if (match(png.pixels[o]!, png.pixels[o + 1]!, png.pixels[o + 2]!)) n++;
  }
  return n;
}

/** What three.js's renderer counted (WebGLRenderer.info) for the last frame. */
interface DrawInfo {
  frame: number;
  calls: number;
  triangles: number;
  geometries: number;
  /** The ids (uuid) of every geometry in the scene graph. */
  uuids: string[];
}
const drawInfo = (page: import('@playwright/test').Page): Promise<DrawInfo> =>
  page.evaluate(() => {
    type Node = { geometry?: { uuid: string }; traverse(f: (o: Node) => void): void };
    const three = (window.limber as unknown as { three: { scene: Node; renderer: { info: { render: { frame: number; calls: number; triangles: number }; memory: { geometries: number } } } } }).three;
    const r = three.renderer.info;
    const uuids: string[] = [];
    three.scene.traverse((o) => {
      if (o.geometry) uuids.push(o.geometry.uuid);
    });
    return { frame: r.render.frame, calls: r.render.calls, triangles: r.render.triangles, geometries: r.memory.geometries, uuids: uuids.sort() };
  });

test('crowd: the draw path is bounded: paths and markers in a few calls, bodies without a shadow pass, no geometry made per frame', async ({ page }) => {
  const errors = await open(page, '?scene=crowd.json');
  await page.waitForTimeout(1500);
  const a = await drawInfo(page);
  await page.waitForTimeout(3000);
  const b = await drawInfo(page);
  console.log(`crowd draw: ${b.frame - a.frame} frames in 3 s; ${b.calls} draw calls, ${b.triangles} triangles a frame; geometries ${a.geometries} -> ${b.geometries}`);
  expect(b.frame - a.frame, 'frames drawn in 3 s').toBeGreaterThan(0);
  // 100 bodies (one call each), the level and the layers' few buffers: 638 calls and 1.49 M
  // triangles before the nav layer was pooled and instanced and crowds stopped casting shadows.
  expect(b.calls, 'draw calls a frame').toBeLessThan(250);
  expect(b.triangles, 'triangles a frame (the bodies drawn once)').toBeLessThan(1_000_000);
  // The nav layer's paths were a new geometry per agent per frame.
  expect(b.geometries, 'geometries alive after 3 s of frames').toBe(a.geometries);
  expect(b.uuids.filter((u) => !a.uuids.includes(u)), 'geometries in the scene made since 3 s ago').toEqual([]);
  expect(errors).toEqual([]);
});
