/** The corridor scene in Chromium: the mannequin walks the generated corridor level with an
 * EnvironmentInteraction. Stepping one step at a time, the reported states run through
 * Search → Approach → Rise → Touch → Reset cycles; mid-touch (step 100) the palm centre is
 * on the wall (0..2 cm), which the screenshot shows, and the hash equals the stored one; after
 * the walk the hash equals the stored, native and Node hashes. */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, open, root } from './helpers.js';

const SCENE = 'assets/scenes/corridor.json';
const STEPS = 1000;
const MID_TOUCH = 100;

interface Interaction {
  state: string;
  side: string;
  rightWeight: number;
  leftWeight: number;
  palmDistance: number;
  plants: number;
  states: string[];
}
interface CorridorApi {
  hash(): string;
  advance(n: number): void;
  interaction(): Interaction | null;
}

/** Steps n times, one at a time; each step's state, side and palm distance. */
const walk = (page: Page, n: number) =>
  page.evaluate((count) => {
    const api = window.limber as unknown as CorridorApi;
    const out: [string, string, number][] = [];
    for (let i = 0; i < count; i++) {
      api.advance(1);
      const d = api.interaction();
      if (!d) throw new Error('the corridor scene has no EnvironmentInteraction');
      out.push([d.state, d.side, d.palmDistance]);
    }
    return out;
  }, n);

test('corridor: state sequence, palm on the wall mid-touch, hash equals the stored, native and Node hashes', async ({ page }, testInfo) => {
  const errors = await open(page, '?scene=corridor.json&paused=1');
  await expect(page.locator('#interaction')).toBeVisible();
  const first = await walk(page, MID_TOUCH);
  const [state, side, palm] = first[MID_TOUCH - 1];
  console.log(`step ${MID_TOUCH}: ${state} ${side}, palm centre ${(palm * 100).toFixed(2)} cm from the wall`);
  expect(state).toBe('Touch');
  expect(palm).toBeGreaterThanOrEqual(0);
  expect(palm).toBeLessThanOrEqual(0.02);
  await expect(page.locator('#interaction-state')).toContainText('Touch');
  // Mid-touch (the arm on the wall by IK, fingers opened) the bones hash as stored.
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  const midHash = await page.evaluate(() => (window.limber as unknown as CorridorApi).hash());
  expect(midHash, `tests/expected-hashes.json "corridor.json@${MID_TOUCH}"`).toBe(expected[`corridor.json@${MID_TOUCH}`]);
  await page.waitForTimeout(250);
  const png = await page.screenshot();
  writeFileSync(testInfo.outputPath('corridor-touch.png'), png);
  await testInfo.attach('corridor-touch.png', { body: png, contentType: 'image/png' });

  const rest = await walk(page, STEPS - MID_TOUCH);
  const all = [...first, ...rest];
  const seq: string[] = [];
  for (const [s] of all) if (seq[seq.length - 1] !== s) seq.push(s);
  console.log(`states: ${seq.join(' → ')}`);
  const cycle = ['Search', 'Approach', 'Rise', 'Touch', 'Reset'];
  expect(seq.length % cycle.length).toBe(1); // cycles, then Search at the end
  seq.forEach((s, i) => expect(s, `state change ${i}`).toBe(cycle[i % cycle.length]));
  expect(seq.length).toBeGreaterThanOrEqual(cycle.length * 4 + 1);
  const touching = all.filter(([s]) => s === 'Touch').map(([, , d]) => d);
  const lo = Math.min(...touching), hi = Math.max(...touching);
  console.log(`Touch: ${touching.length} steps, palm centre ${(lo * 100).toFixed(2)}..${(hi * 100).toFixed(2)} cm from the wall`);
  expect(lo).toBeGreaterThanOrEqual(0);
  expect(hi).toBeLessThanOrEqual(0.02);

  const hash = await page.evaluate(() => (window.limber as unknown as CorridorApi).hash());
  expect(hash, `tests/expected-hashes.json "corridor.json@${STEPS}"`).toBe(expected[`corridor.json@${STEPS}`]);
  expect(cliHash(join(root, 'build/native/limber'), ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});
