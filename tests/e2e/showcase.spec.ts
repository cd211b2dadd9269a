/** The playground as a showcase, scene by scene: a screenshot of each (attached to the test
 * and saved as test-results/.../<scene>.png), the characters drawn as bodies covering a fair
 * share of the frame (mask render of the body meshes: a stick figure covers well under 1 %),
 * and the floor under their feet: the lowest foot joint within a few centimetres of y = 0 and
 * the floor plane covering the pixels just below it. The locomotion scene is checked after
 * 30 s of running at full speed (over 100 m from the start). */
import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import type { ShowcaseReport } from '../../web/playground/api.js';
import { decodePng, open } from './helpers.js';

/** What window.limber.showcase() returns (the playground's own type). */
type Report = ShowcaseReport;
interface ShowcaseApi {
  showcase(): Report;
  advance(n: number): void;
  animator(): { position: [number, number, number] };
}
const api = (page: Page) => page.evaluate(() => (window.limber as unknown as ShowcaseApi).showcase());

const SCENES: { file: string; query: string; minCharacter: number; feetInFrame: boolean; minProps?: number; run?: (page: Page) => Promise<void> }[] = [
  { file: 'default.json', query: 'steps=120&paused=1', minCharacter: 0.05, feetInFrame: true },
  { file: 'grip-lab.json', query: 'steps=240&paused=1', minCharacter: 0.12, feetInFrame: false, minProps: 0.01 },
  {
    file: 'locomotion.json',
    query: 'steps=480&paused=1',
    minCharacter: 0.04,
    feetInFrame: true,
    async run(page) {
      await page.locator('#speed').fill('3.5');
      await page.evaluate(() => (window.limber as unknown as ShowcaseApi).advance(1800));
      const p = await page.evaluate(() => (window.limber as unknown as ShowcaseApi).animator().position);
      expect(Math.hypot(p[0], p[2]), 'distance walked (m)').toBeGreaterThan(60);
    },
  },
];

for (const s of SCENES) {
  test(`showcase: ${s.file} draws the character's body over the floor`, async ({ page }, testInfo) => {
    const errors = await open(page, `?scene=${s.file}&${s.query}`);
    if (s.run) await s.run(page);
    await page.waitForTimeout(250);
    const png = await page.screenshot();
    const name = s.file.replace(/\.json$/, '');
    writeFileSync(testInfo.outputPath(`${name}.png`), png);
    await testInfo.attach(`${name}.png`, { body: png, contentType: 'image/png' });

    const r = await api(page);
    console.log(`${s.file}: body ${(r.character * 100).toFixed(1)} % of the frame, floor ${(r.floor * 100).toFixed(1)} %, props ${(r.props * 100).toFixed(2)} %; ` +
      r.feet.map((f) => `${f.rig} ${f.joint} y=${f.y.toFixed(3)} m at (${f.screen.map((v) => v.toFixed(0)).join(', ')}) floor below ${f.floorBelow.join('/')}`).join('; '));
    expect(r.character, 'share of the frame covered by the body').toBeGreaterThan(s.minCharacter);
    expect(r.character, 'the body does not fill the frame').toBeLessThan(0.7);
    if (s.minProps !== undefined) expect(r.props, 'share of the frame covered by the held prop (solid)').toBeGreaterThan(s.minProps);
    expect(r.feet.length).toBeGreaterThan(0);
    for (const f of r.feet) {
      expect(Math.abs(f.y), `${f.rig}: lowest foot joint ${f.joint} near the floor (y = 0)`).toBeLessThan(0.08);
      if (s.feetInFrame) expect(f.floorBelow, `${f.rig}: floor drawn below ${f.joint}`).toEqual([true, true, true]);
    }
    // The floor is under the whole lower part of the frame where it shows at all: the
    // screenshot's bottom row is not the background colour wherever feet are in frame.
    if (s.feetInFrame) {
      expect(r.floor, 'share of the frame covered by the floor').toBeGreaterThan(0.2);
      const img = decodePng(png);
      const y = img.height - 2;
      let bg = 0;
      for (let x = 0; x < img.width; x++) {
        const p = (y * img.width + x) * img.channels;
        if (img.pixels[p] === 0x1b && img.pixels[p + 1] === 0x1e && img.pixels[p + 2] === 0x23) bg++;
      }
      expect(bg / img.width, 'background pixels on the bottom row').toBeLessThan(0.05);
    }
    expect(errors).toEqual([]);
  });
}
