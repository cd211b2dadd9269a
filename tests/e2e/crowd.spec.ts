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
