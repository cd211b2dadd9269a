/** The playground as a showcase, scene by scene: a screenshot of each (attached to the test
 * and saved as test-results/.../<scene>.png), the characters drawn as bodies covering a fair
 * share of the frame (mask render of the body meshes: a stick figure covers well under 1 %),
 * and the floor under their feet: the lowest foot joint within a few centimetres of y = 0 and
 * the floor plane covering the pixels just below it. The locomotion scene is checked after
 * 30 s of running at full speed (over 100 m from the start).
 *
 * Then every scene in the picker, opened as a newcomer would: its subject (head to feet; head,
 * hands and held prop in a grip scene; every agent of a group) inside the free part of the view
 * at load and after 3 s of play, the camera outside every collider, the HUD fitting 1280 x 720
 * without scrolling, help naming only controls the scene has, no page error; screenshots
 * <scene>-load.png and <scene>-play.png. */
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShowcaseReport } from '../../web/playground/api.js';
import { cliHash, decodePng, open, root } from './helpers.js';

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
        // the page background (stage.ts BACKGROUND)
        if (img.pixels[p] === 0x5b && img.pixels[p + 1] === 0x65 && img.pixels[p + 2] === 0x73) bg++;
      }
      expect(bg / img.width, 'background pixels on the bottom row').toBeLessThan(0.05);
    }
    expect(errors).toEqual([]);
  });
}

/** What window.limber.framing() returns (web/playground/api.ts FramingReport). */
interface Framing {
  kind: string;
  viewport: { width: number; height: number };
  free: { left: number; right: number; top: number; bottom: number };
  bodies: { rig: string; rect: [number, number, number, number]; behind: boolean }[];
  cameraInside: boolean;
  hidden: number;
  hud: { height: number; scrollHeight: number; clientHeight: number; right: number };
}
const framing = (page: Page) => page.evaluate(() => (window.limber as unknown as { framing(): Framing }).framing());

/** Pixels every subject box keeps from the edges of the free view. */
const MARGIN = 4;

/** The subject is inside the free part of the view (beside the HUD), in front of the camera;
 * the camera is not inside a collider; the HUD fits the page without scrolling. */
function expectFramed(f: Framing, when: string): void {
  expect(f.bodies.length, `${when}: subject characters`).toBeGreaterThan(0);
  for (const b of f.bodies) {
    const [l, t, r, bottom] = b.rect;
    const at = `${when}: ${b.rig} (${f.kind}) at [${b.rect.map((v) => v.toFixed(0)).join(', ')}] in [${f.free.left.toFixed(0)}, 0, ${f.free.right}, ${f.viewport.height}]`;
    expect(b.behind, `${at}: in front of the camera`).toBe(false);
    expect(l, `${at}: left edge`).toBeGreaterThanOrEqual(f.free.left + MARGIN);
    expect(r, `${at}: right edge`).toBeLessThanOrEqual(f.free.right - MARGIN);
    expect(t, `${at}: top (head)`).toBeGreaterThanOrEqual(MARGIN);
    expect(bottom, `${at}: bottom (feet, or hands in a close shot)`).toBeLessThanOrEqual(f.viewport.height - MARGIN);
  }
  expect(f.cameraInside, `${when}: camera inside a collider`).toBe(false);
  expect(f.hud.height, `${when}: HUD height`).toBeLessThanOrEqual(f.viewport.height);
  expect(f.hud.scrollHeight, `${when}: HUD content fits without scrolling`).toBeLessThanOrEqual(f.hud.clientHeight + 1);
}

/** Each help line names a control the page shows: [what the line says, the control]. */
const HELP_CONTROLS: [RegExp, string][] = [
  [/slider/, '#speed'],
  [/Switch hand/, '#switch-hand'],
  [/^Vault button/, '#vault-button'],
  [/^Trigger button/, '#triggers button'],
  [/nav agent/, '#nav-agent'],
  [/sphere/, '#view canvas'],
];

const PICKER = readdirSync(join(root, 'assets/scenes')).filter((f) => f.endsWith('.json')).sort();

for (const file of PICKER) {
  test(`framing: ${file} opens with its subject in frame and keeps it there; the HUD fits and names only controls it has`, async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const errors = await open(page, `?scene=${file}`);
    expect(await page.locator('#scene-select option').allTextContents(), 'the picker offers every scene file').toEqual(PICKER);
    const name = file.replace(/\.json$/, '');
    const shot = async (tag: string): Promise<void> => {
      const png = await page.screenshot();
      writeFileSync(testInfo.outputPath(`${name}-${tag}.png`), png);
      await testInfo.attach(`${name}-${tag}.png`, { body: png, contentType: 'image/png' });
    };
    const f0 = await framing(page);
    console.log(`${file}: ${f0.kind}, ${f0.bodies.length} subject(s), first at [${f0.bodies[0]?.rect.map((v) => v.toFixed(0)).join(', ')}], HUD ${f0.hud.height.toFixed(0)} px, ${f0.hidden} subject points behind a collider (drawn see-through)`);
    expectFramed(f0, 'at load');
    await shot('load');
    // Let it play (the simulation keeps real time whatever the frame rate).
    const steps0 = await page.evaluate(() => window.limber!.steps());
    await page.waitForTimeout(3000);
    const f1 = await framing(page);
    const steps1 = await page.evaluate(() => window.limber!.steps());
    expect(steps1 - steps0, 'steps run in 3 s of play').toBeGreaterThan(60);
    expectFramed(f1, `after ${steps1} steps`);
    await shot('play');
    // A slow machine shows the "behind" flag beside the rates; the status line stays one line,
    // so the HUD does not grow past the page (CI once failed here by 16 px: one wrapped line).
    const grown = await page.evaluate(() => {
      const hud = document.getElementById('hud')!;
      const behind = document.getElementById('behind')!;
      const before = hud.scrollHeight;
      behind.hidden = false;
      behind.textContent = 'behind: runs at 12 % of real time';
      const after = hud.scrollHeight;
      behind.hidden = true;
      return after - before;
    });
    expect(grown, 'HUD growth in px when the "behind" flag shows').toBe(0);
    // Nothing in the HUD is cut at its right edge (a long layer label once was).
    const wide = await page.evaluate(() => {
      const hud = document.getElementById('hud')!;
      return { scroll: hud.scrollWidth, client: hud.clientWidth };
    });
    expect(wide.scroll, 'HUD content width (px) fits its box').toBeLessThanOrEqual(wide.client + 1);
    // Help names existing controls only; the slider's line only where there is a slider.
    const help = await page.locator('#help div').allTextContents();
    for (const line of help) {
      for (const [says, control] of HELP_CONTROLS) {
        if (says.test(line)) await expect(page.locator(control).first(), `help "${line}" names ${control}`).toBeVisible();
      }
    }
    if (!(await page.locator('#speed-row').isVisible())) expect(help.join(' ')).not.toMatch(/slider/);
    // One Vault button: a Vault component's trigger has no Animator trigger button of its own.
    if (await page.locator('#vault-button').count()) expect(await page.locator('#trigger-Vault').count()).toBe(0);
    // Grip layers only where something is held.
    const ids = await page.evaluate(() => (window.limber as unknown as { layers: { ids(): string[] } }).layers.ids());
    const holds = await page.locator('#grip').isVisible();
    expect(ids.includes('palms'), `grip layers listed (${ids.join(', ')})`).toBe(holds);
    expect(errors).toEqual([]);
  });
}

test('framing on the settled pose leaves the world as loaded: steps 0, the CLIs\' hash for 0 steps', async ({ page }) => {
  const errors = await open(page, '?scene=grip-lab.json&paused=1');
  expect(await page.evaluate(() => window.limber!.steps())).toBe(0);
  const hash = await page.evaluate(() => window.limber!.hash());
  expect(cliHash(join(root, 'build/native/limber'), ['hash', 'assets/scenes/grip-lab.json', '--steps', '0'])).toBe(hash);
  // framed on the held pose (the grip's 0.25 s blend done), not the rest pose (a T-pose):
  // once there, head, hands and rifle fill a close shot
  await page.evaluate(() => (window.limber as unknown as { advance(n: number): void }).advance(16));
  const f = await framing(page);
  expectFramed(f, 'once the grip has blended in');
  const [, t, , b] = f.bodies[0]!.rect;
  expect(b - t, 'close shot: head to hands and rifle, px tall').toBeGreaterThan(0.4 * f.viewport.height);
  expect(errors).toEqual([]);
});
