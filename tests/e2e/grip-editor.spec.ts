/** The grip editor (?editor=1 on grip-lab.json): preview, anchors, fingers, undo/redo,
 * mirror, wrap, surfaces, export/import, save; debug layers and the plot panel. Actions go
 * through the page's UI (mouse drags, keys, clicks); state is read from window.limber. */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, dist, open, root, type Vec3 } from './helpers.js';

const URL = '?scene=grip-lab.json&paused=1&editor=1';
const SHOTS = join(root, 'test-results', 'grip-editor');
mkdirSync(SHOTS, { recursive: true });

interface EditorStatus {
  previewing: boolean;
  mainHand: 'Right' | 'Left' | null;
  mainDistance: number;
  supportDistance: number;
  contacts: { main: string[]; support: string[] };
  canUndo: boolean;
  canRedo: boolean;
}
interface EditorApi {
  status(): EditorStatus;
  handles(): Record<string, [number, number]>;
  bend(finger: string, joint: number): number | null;
  localPose(): string;
  gizmoPosition(): Vec3 | null;
  sceneText(): string;
}
type Api = { hash(): string; editor: EditorApi | null; grip(name: string): { palms: Record<'main' | 'support', Vec3 | null> }; screenPosition(p: Vec3): [number, number]; gizmoAxis(): string | null; layers: { ids(): string[]; visible(id: string): boolean }; plot: { plotted(): string[]; values(k: string): { step: number; v: number }[] } };
const api = (page: Page) => page.evaluate(() => (window.limber as unknown as Api).editor!.status());
/** Runs `fn(window.limber.editor, window.limber)` in the page. */
const ed = <T>(page: Page, fn: (e: EditorApi, l: Api) => T) => page.evaluate(`(${fn.toString()})(window.limber.editor, window.limber)`) as Promise<T>;

async function preview(page: Page): Promise<void> {
  await page.click('#ed-preview');
  await expect.poll(() => api(page).then((s) => s.previewing)).toBe(true);
}

test('grip editor: preview on and off restores the scene hash exactly', async ({ page }) => {
  const errors = await open(page, URL);
  const before = await page.evaluate(() => window.limber!.hash());
  await preview(page);
  await page.screenshot({ path: join(SHOTS, 'preview.png') });
  const during = await page.evaluate(() => window.limber!.hash());
  expect(during).not.toBe(before);
  await page.click('#ed-preview');
  expect(await page.evaluate(() => window.limber!.hash())).toBe(before);
  expect(errors).toEqual([]);
});

/** Finds a screen point on a gizmo axis handle near `center` (hovering until the gizmo says so). */
async function findAxis(page: Page, center: [number, number], dir: [number, number]): Promise<[number, number]> {
  const n = Math.hypot(dir[0], dir[1]) || 1;
  for (let r = 14; r < 140; r += 4) {
    const p: [number, number] = [center[0] + (dir[0] / n) * r, center[1] + (dir[1] / n) * r];
    await page.mouse.move(p[0], p[1]);
    const axis = await page.evaluate(() => (window.limber as unknown as Api).gizmoAxis());
    if (axis === 'X' || axis === 'Y' || axis === 'Z') return p;
  }
  throw new Error('no gizmo axis found');
}

test('grip editor: dragging the main anchor with the gizmo moves the palm with it (≤ 0.5 mm)', async ({ page }) => {
  const errors = await open(page, URL);
  await preview(page);
  const start = (await ed(page, (e) => e.gizmoPosition()))!;
  expect(start).not.toBeNull();
  const c = await page.evaluate((p) => (window.limber as unknown as Api).screenPosition(p), start);
  const tip = await page.evaluate((p) => (window.limber as unknown as Api).screenPosition([p[0] + 0.05, p[1], p[2]]), start);
  const grab = await findAxis(page, c, [tip[0] - c[0], tip[1] - c[1]]);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(grab[0] + 6 * i, grab[1] + 1 * i);
  await page.mouse.up();
  const moved = (await ed(page, (e) => e.gizmoPosition()))!;
  expect(dist(moved, start), 'the anchor moved').toBeGreaterThan(0.005);
  const st = await api(page);
  expect(st.mainDistance, 'main palm on the moved anchor').toBeLessThanOrEqual(5e-4);
  const palm = (await page.evaluate(() => (window.limber as unknown as Api).grip('hero'))).palms.main!;
  expect(dist(palm, moved), 'the palm drawn on the anchor').toBeLessThan(1e-4);
  await expect(page.locator('#ed-main-distance')).toHaveText(/^0\.\d\d mm$/);
  // one drag is one undo step
  expect(st.canUndo).toBe(true);
  await page.click('#ed-undo');
  expect(dist((await ed(page, (e) => e.gizmoPosition()))!, start)).toBeLessThan(1e-6);
  await page.screenshot({ path: join(SHOTS, 'anchor-drag.png') });
  // far out of reach: the remaining distance is shown
  const grab2 = await findAxis(page, c, [tip[0] - c[0], tip[1] - c[1]]);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(grab2[0] - 40 * i, grab2[1]);
  await page.mouse.up();
  const far = await api(page);
  expect(far.mainDistance, 'the palm cannot reach the anchor').toBeGreaterThan(0.01);
  await expect(page.locator('#ed-reach')).toHaveText(/^cannot reach: \d+\.\d\d mm short$/);
  // a red line joins the palm to its anchor, as long as the distance reported
  const gaps = await ed(page, (e) => (e as unknown as { gapLines(): [Vec3, Vec3][] }).gapLines());
  expect(gaps.length).toBe(1);
  expect(Math.abs(dist(gaps[0][0], gaps[0][1]) - far.mainDistance), 'the drawn gap is the reported distance').toBeLessThan(1e-3);
  await page.screenshot({ path: join(SHOTS, 'out-of-reach.png') });
  expect(errors).toEqual([]);
});

/** A finger handle far (≥ 12 px) from every other one, and its screen position. */
async function lonelyHandle(page: Page, prefer: string[]): Promise<[string, [number, number]]> {
  const hs = await ed(page, (e) => e.handles());
  const keys = Object.keys(hs);
  expect(keys.length).toBeGreaterThan(8);
  const ok = (k: string) => keys.every((o) => o === k || Math.hypot(hs[o][0] - hs[k][0], hs[o][1] - hs[k][1]) >= 12);
  const k = [...prefer, ...keys].find((x) => hs[x] && ok(x) && !x.startsWith('thumb'));
  if (!k) throw new Error(`no finger handle stands alone: ${JSON.stringify(hs)}`);
  return [k, hs[k]];
}

test('grip editor: dragging a finger handle bends that joint; Ctrl+Z restores the exact pose, Ctrl+Shift+Z repeats it', async ({ page }) => {
  const errors = await open(page, URL);
  await preview(page);
  await page.click('#ed-anchor-main'); // gizmo off: the handles are free
  await page.click('#ed-focus-hand'); // the camera close to the hand: handles apart
  const [key, at] = await lonelyHandle(page, ['middle:1', 'ring:1', 'index:0', 'pinky:1']);
  const [finger, joint] = [key.split(':')[0], Number(key.split(':')[1])];
  const bend0 = await page.evaluate(([f, j]) => (window.limber as unknown as Api).editor!.bend(f as string, j as number), [finger, joint]);
  const pose0 = await ed(page, (e) => e.localPose());
  const hash0 = await page.evaluate(() => window.limber!.hash());
  await page.mouse.move(at[0], at[1]);
  await page.mouse.down();
  for (let i = 1; i <= 4; i++) await page.mouse.move(at[0], at[1] + 10 * i); // down: less bend
  await page.mouse.up();
  const bend1 = await page.evaluate(([f, j]) => (window.limber as unknown as Api).editor!.bend(f as string, j as number), [finger, joint]);
  expect(bend1, `${key} bend after dragging 40 px down`).toBeCloseTo(bend0! - 20, 3);
  const pose1 = await ed(page, (e) => e.localPose());
  expect(pose1).not.toBe(pose0);
  await expect(page.locator(`#ed-bend-${finger}-${joint}`)).toHaveValue(String(Number(bend1!.toFixed(3))));
  await page.screenshot({ path: join(SHOTS, 'finger-drag.png') });
  await page.keyboard.press('Control+z');
  expect(await ed(page, (e) => e.localPose()), 'undo: the exact previous pose').toBe(pose0);
  expect(await page.evaluate(() => window.limber!.hash())).toBe(hash0);
  await page.keyboard.press('Control+Shift+z');
  expect(await ed(page, (e) => e.localPose()), 'redo: the same edit again').toBe(pose1);
  // the buttons do the same
  await page.click('#ed-undo');
  expect(await ed(page, (e) => e.localPose())).toBe(pose0);
  await page.click('#ed-redo');
  expect(await ed(page, (e) => e.localPose())).toBe(pose1);
  // a numeric field is one step too; reset goes back to the named pose
  await page.fill(`#ed-fan-${finger}`, '12');
  await page.press(`#ed-fan-${finger}`, 'Enter');
  expect(await ed(page, (e) => e.localPose())).not.toBe(pose1);
  await page.click('#ed-reset');
  expect(await ed(page, (e) => e.localPose()), 'reset to the pose').toBe(pose0);
  expect(errors).toEqual([]);
});

test('grip editor: the main-hand switch mirrors the grip through the drawn mirror plane', async ({ page }) => {
  const errors = await open(page, URL);
  await preview(page);
  const before = await page.evaluate(() => (window.limber as unknown as Api).grip('hero'));
  const rifle = await page.evaluate(() => window.limber!.entityPosition('rifle'));
  await page.click('#ed-switch');
  const st = await api(page);
  expect(st.mainHand).toBe('Left');
  await expect(page.locator('#ed-main-hand')).toHaveText('Left');
  const after = await page.evaluate(() => (window.limber as unknown as Api).grip('hero'));
  const mirror = (p: Vec3): Vec3 => [2 * rifle[0] - p[0], p[1], p[2]];
  for (const role of ['main', 'support'] as const) expect(dist(after.palms[role]!, mirror(before.palms[role]!)), `${role} palm mirrored`).toBeLessThan(1e-5);
  expect(st.mainDistance).toBeLessThanOrEqual(5e-4);
  expect(st.supportDistance).toBeLessThanOrEqual(5e-4);
  const plane = await page.evaluate(() => {
    const p = (window.limber as unknown as { three: { scene: { getObjectByName(n: string): { visible: boolean; matrix: { elements: number[] } } | undefined } } }).three.scene.getObjectByName('mirror-plane');
    return p ? { visible: p.visible, at: p.matrix.elements.slice(12, 15) } : null;
  });
  expect(plane?.visible).toBe(true);
  expect(dist(plane!.at as Vec3, rifle)).toBeLessThan(1e-5);
  await page.screenshot({ path: join(SHOTS, 'mirrored.png') });
  await page.click('#ed-switch');
  expect((await api(page)).mainHand).toBe('Right');
  expect(errors).toEqual([]);
});

test('grip editor: the wrap toggle changes the touching fingers; a new surface brings a new contact', async ({ page }) => {
  const errors = await open(page, URL);
  await preview(page);
  const on = await api(page);
  expect(on.contacts.main.length).toBeGreaterThan(0);
  await page.click('#ed-wrap');
  const off = await api(page);
  expect(off.contacts).toEqual({ main: [], support: [] });
  await expect(page.locator('#ed-contacts')).toHaveText('main: — · support: —');
  await page.click('#ed-wrap');
  expect((await api(page)).contacts).toEqual(on.contacts);
  // without the pistol grip the main hand touches less; a bar across the palm is touched
  await page.click('#ed-surface-del-pistolGrip');
  const fewer = await api(page);
  await page.click('#ed-new-surface');
  await expect(page.locator('#ed-surface-surface1')).toBeVisible();
  const more = await api(page);
  const added = more.contacts.main.filter((f) => !fewer.contacts.main.includes(f));
  expect(added.length, `new contacts (before ${fewer.contacts.main}, after ${more.contacts.main})`).toBeGreaterThan(0);
  // the surface is editable: a larger radius is another shape
  const pose = await ed(page, (e) => e.localPose());
  await page.fill('#ed-surface-surface1-radius', '0.03');
  await page.press('#ed-surface-surface1-radius', 'Enter');
  expect(await ed(page, (e) => e.localPose())).not.toBe(pose);
  await page.screenshot({ path: join(SHOTS, 'new-surface.png') });
  expect(errors).toEqual([]);
});

test('grip editor: export, then import into a fresh page gives the same hash; leaving preview after edits restores the scene', async ({ page, context }) => {
  const errors = await open(page, URL);
  const sceneHash = await page.evaluate(() => window.limber!.hash());
  await preview(page);
  await page.fill('#ed-bend-middle-1', '40');
  await page.press('#ed-bend-middle-1', 'Enter');
  await page.click('#ed-new-surface');
  await page.click('#ed-anchor-main');
  await page.click('#ed-export');
  const pose = await page.inputValue('#ed-pose-json');
  const fragment = await page.inputValue('#ed-fragment-json');
  expect(JSON.parse(pose).joints).toBeTruthy();
  expect(JSON.parse(fragment).entities.length).toBeGreaterThan(2);
  const edited = await page.evaluate(() => window.limber!.hash());
  // save scene: the whole scene as a download
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ed-save')]);
  const saved = JSON.parse(await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8')) as { entities: { name: string; components: Record<string, unknown> }[] };
  expect(saved.entities.find((e) => e.name === 'surface1')).toBeTruthy();
  expect(saved.entities.find((e) => e.name === 'rifle')?.components.GripProfile).toBeTruthy();
  // the saved scene loads and runs in the CLI
  const savedPath = join(SHOTS, 'saved-scene.json');
  await download.saveAs(savedPath);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', savedPath, '--steps', '30'])).toMatch(/^[0-9a-f]{16}$/);

  const fresh = await context.newPage();
  const errors2 = await open(fresh, URL);
  await preview(fresh);
  expect(await fresh.evaluate(() => window.limber!.hash())).not.toBe(edited);
  await fresh.fill('#ed-pose-json', pose);
  await fresh.fill('#ed-fragment-json', fragment);
  await fresh.click('#ed-import');
  await expect(fresh.locator('#ed-io-error')).toHaveText('');
  expect(JSON.stringify(await ed(fresh, (e) => e.document())), 'the same document').toBe(JSON.stringify(await ed(page, (e) => e.document())));
  expect(await fresh.evaluate(() => window.limber!.hash()), 'imported into a fresh page').toBe(edited);
  await fresh.screenshot({ path: join(SHOTS, 'imported.png') });

  await page.click('#ed-preview');
  expect(await page.evaluate(() => window.limber!.hash()), 'preview left after edits').toBe(sceneHash);
  expect(errors).toEqual([]);
  expect(errors2).toEqual([]);
});

test('playground: debug layers toggle, the plot panel samples chosen values', async ({ page }) => {
  const errors = await open(page, '?scene=grip-lab.json&steps=10&paused=1');
  const ids = await page.evaluate(() => (window.limber as unknown as Api).layers.ids());
  // grip-lab has no IK targets: no 'ik' layer; the palms are off outside the editor
  expect(ids).toEqual(['skeleton', 'palms', 'surfaces', 'contacts']);
  expect(await page.evaluate(() => (window.limber as unknown as Api).layers.visible('skeleton'))).toBe(false);
  await page.click('#show-skeleton');
  expect(await page.evaluate(() => (window.limber as unknown as Api).layers.visible('skeleton'))).toBe(true);
  expect(await page.evaluate(() => (window.limber as unknown as Api).layers.visible('palms'))).toBe(false);
  await page.click('#show-palms');
  expect(await page.evaluate(() => (window.limber as unknown as Api).layers.visible('palms'))).toBe(true);
  await page.selectOption('#plot-pick', 'hero.GripHolder.supportDistance');
  expect(await page.evaluate(() => (window.limber as unknown as Api).plot.plotted())).toEqual(['hero.GripHolder.mainDistance', 'hero.GripHolder.supportDistance']);
  for (let i = 0; i < 5; i++) await page.click('#step');
  const v = await page.evaluate(() => (window.limber as unknown as Api).plot.values('hero.GripHolder.supportDistance'));
  expect(v.length).toBeGreaterThanOrEqual(5);
  await page.screenshot({ path: join(SHOTS, 'layers-plot.png') });
  expect(errors).toEqual([]);
});

test('grip editor: a clip of the character scrubs and plays under the grip', async ({ page }) => {
  const errors = await open(page, '?scene=grip-clips.json&paused=1&editor=1');
  await preview(page);
  await expect(page.locator('#ed-anim')).toBeVisible();
  const rest = await ed(page, (e) => e.localPose());
  await page.selectOption('#ed-clip', 'idle');
  const t0 = await ed(page, (e) => e.localPose());
  await page.locator('#ed-time').fill('0.5');
  await expect(page.locator('#ed-time-value')).toHaveText('1.00 s');
  const t1 = await ed(page, (e) => e.localPose());
  expect(t1).not.toBe(t0);
  expect(t0).not.toBe(rest);
  const st = await api(page);
  expect(st.mainDistance, 'the grip holds while the clip plays').toBeLessThanOrEqual(5e-4);
  expect(st.supportDistance).toBeLessThanOrEqual(5e-4);
  // scrubbing back gives the same pose again; play advances the time
  await page.locator('#ed-time').fill('0');
  expect(await ed(page, (e) => e.localPose())).toBe(t0);
  await page.click('#ed-play');
  await expect.poll(() => ed(page, (e) => e.document()!.time), { timeout: 10_000 }).toBeGreaterThan(0.05);
  await page.click('#ed-play');
  await page.screenshot({ path: join(SHOTS, 'clip.png') });
  // back to the rest pose: the first preview pose exactly
  await page.selectOption('#ed-clip', '');
  expect(await ed(page, (e) => e.localPose())).toBe(rest);
  expect(errors).toEqual([]);
});

/** The picture's free space (viewport px): right of the HUD, left of the editor's panel. */
const freeSpace = (page: Page) => page.evaluate(() => ({ left: document.getElementById('hud')!.getBoundingClientRect().right, right: document.getElementById('editor')!.getBoundingClientRect().left, bottom: window.innerHeight }));

/** The head's top, both hands and both feet's toe ends drawn inside the free space, 8 px in
 * from its edges; returns the character's drawn height (px) and the space's height. */
async function expectCharacterInFrame(page: Page, when: string): Promise<{ height: number; view: number }> {
  const box = await freeSpace(page);
  const joints = ['HeadTop_End', 'LeftHand', 'RightHand', 'LeftToe_End', 'RightToe_End'];
  const at = await page.evaluate((js) => js.map((j) => window.limber!.screenPosition(window.limber!.handPosition(j))), joints);
  joints.forEach((j, i) => {
    const [x, y] = at[i];
    expect(x, `${when}: ${j} right of the HUD (${box.left.toFixed(0)} px)`).toBeGreaterThan(box.left + 8);
    expect(x, `${when}: ${j} left of the editor panel (${box.right.toFixed(0)} px)`).toBeLessThan(box.right - 8);
    expect(y, `${when}: ${j} below the top`).toBeGreaterThan(8);
    expect(y, `${when}: ${j} above the bottom`).toBeLessThan(box.bottom - 8);
  });
  const ys = at.map((p) => p[1]);
  return { height: Math.max(...ys) - Math.min(...ys), view: box.bottom };
}

test('grip editor: ?editor=1 alone opens grip-lab and previews a hold, the whole character in frame', async ({ page }) => {
  const errors = await open(page, '?editor=1');
  await expect(page.locator('#scene-name')).toHaveText('grip-lab.json');
  await expect(page.locator('#ed-preview')).toBeEnabled();
  await expect(page.locator('#ed-message')).toBeHidden();
  const load = await expectCharacterInFrame(page, 'on load');
  await preview(page);
  const st = await api(page);
  expect(st.mainDistance, 'main palm on its anchor').toBeLessThanOrEqual(5e-4);
  expect(st.supportDistance, 'support palm on its anchor').toBeLessThanOrEqual(5e-4);
  const held = await expectCharacterInFrame(page, 'in preview');
  // framed, not a speck: head to toes over half the picture's height
  expect(held.height / held.view).toBeGreaterThan(0.5);
  console.log(`?editor=1: head to toes ${load.height.toFixed(0)} px on load, ${held.height.toFixed(0)} px of ${held.view} in preview; palms ${(st.mainDistance * 1000).toFixed(3)} / ${(st.supportDistance * 1000).toFixed(3)} mm`);
  await page.screenshot({ path: join(SHOTS, 'editor-default.png') });
  await page.click('#ed-preview');
  expect((await api(page)).previewing).toBe(false);
  expect(errors).toEqual([]);
});

test('grip editor: a scene with nothing to hold says so, the preview box is disabled and nothing throws', async ({ page }) => {
  const errors = await open(page, '?scene=default.json&editor=1');
  await expect(page.locator('#ed-message')).toBeVisible();
  await expect(page.locator('#ed-message')).toContainText('default.json has no object with a GripProfile (nothing to hold)');
  await expect(page.locator('#ed-message a')).toHaveAttribute('href', '?scene=grip-lab.json&editor=1');
  await expect(page.locator('#ed-preview')).toBeDisabled();
  // even when the box is forced on, entering preview does nothing and throws nothing
  await page.evaluate(() => {
    const box = document.getElementById('ed-preview') as HTMLInputElement;
    box.disabled = false;
    box.click();
  });
  expect((await api(page)).previewing).toBe(false);
  await expect(page.locator('#ed-preview')).not.toBeChecked();
  await expect(page.locator('#ed-body')).toBeHidden();
  await expect(page.locator('#ed-message'), 'the message stays').toBeVisible();
  expect(await page.locator('#error').textContent()).toBe('');
  // the scene itself still runs
  const steps = await page.evaluate(() => window.limber!.steps());
  await expect.poll(() => page.evaluate(() => window.limber!.steps())).toBeGreaterThan(steps);
  await page.screenshot({ path: join(SHOTS, 'nothing-to-hold.png') });
  expect(errors).toEqual([]);
});
