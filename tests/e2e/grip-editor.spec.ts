/** The grip editor (?editor=1 on grip-lab.json): preview, anchors, fingers, undo/redo,
 * mirror, wrap, surfaces, export/import, save; debug layers and the plot panel. Actions go
 * through the page's UI (mouse drags, keys, clicks); state is read from window.limber. */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dist, open, root, type Vec3 } from './helpers.js';

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
const ed = <T>(page: Page, fn: (e: EditorApi, l: Api) => T) => page.evaluate(fn as never, null) as Promise<T>;

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
