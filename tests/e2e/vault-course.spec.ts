/** The vault-course scene in Chromium. (1) With its timeline: the requests' outcomes are the
 * level file's verdicts (curb StepOver, four boxes vaulted, tall TooTall, deep Mantle) and the
 * hash after 1000 steps equals the stored, native and Node hashes. (2) Without its timeline
 * (`?timeline=0`): the page's Vault button is clicked 0.7 m before each obstacle as the
 * mannequin runs; the reported states run Idle → Vaulting → Over → Landing → Idle for each box
 * and the refusals name the curb and the tall box. */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliHash, open, root } from './helpers.js';

const SCENE = 'assets/scenes/vault-course.json';
const STEPS = 1000;
/** Takeoffs on the lane (assets/levels/vault-course.json "obstacles"), curb to the tall box. */
const TAKEOFFS = [3.3, 9.3, 15.3, 21.3, 27.3, 33.3];

interface VaultReport {
  state: string;
  obstacleClass: string;
  refusal: string;
  vaults: number;
  refusals: number;
  position: [number, number, number];
  states: string[];
  outcomes: string[];
}
interface VaultApi {
  hash(): string;
  advance(n: number): void;
  vault(): VaultReport | null;
}

const report = (page: Page) => page.evaluate(() => (window.limber as unknown as VaultApi).vault());

test('vault course with its timeline: outcomes per obstacle, hash equals the stored, native and Node hashes', async ({ page }) => {
  const errors = await open(page, '?scene=vault-course.json&paused=1');
  await expect(page.locator('#vault')).toBeVisible();
  await page.evaluate((n) => {
    const api = window.limber as unknown as VaultApi;
    for (let i = 0; i < n; i++) api.advance(1);
  }, STEPS);
  const r = await report(page);
  if (!r) throw new Error('the vault-course scene has no Vault');
  console.log(`outcomes: ${r.outcomes.join(', ')}; states: ${r.states.join(' → ')}`);
  expect(r.outcomes).toEqual(['StepOver:NotVaultable', 'Vault:None', 'Vault:None', 'Vault:None', 'Vault:None', 'TooTall:NotVaultable', 'Mantle:NotVaultable']);
  expect(r.vaults).toBe(4);
  expect(r.refusals).toBe(3);
  const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;
  const hash = await page.evaluate(() => (window.limber as unknown as VaultApi).hash());
  expect(hash, `tests/expected-hashes.json "vault-course.json@${STEPS}"`).toBe(expected[`vault-course.json@${STEPS}`]);
  expect(cliHash(join(root, 'build/native/limber'), ['hash', SCENE, '--steps', String(STEPS)]), 'native CLI').toBe(hash);
  expect(cliHash(process.execPath, [join(root, 'dist/web/cli/limber.js'), 'hash', SCENE, '--steps', String(STEPS)]), 'Node CLI').toBe(hash);
  expect(errors).toEqual([]);
});

test('vault course from the Vault button: states per box, refusals for the curb and the tall box', async ({ page }, testInfo) => {
  const errors = await open(page, '?scene=vault-course.json&paused=1&timeline=0&layers=vault');
  await expect(page.locator('#vault-button')).toBeVisible();
  const perRequest: string[][] = [];
  for (const z of TAKEOFFS) {
    // run to the takeoff, then press the button
    const at = await page.evaluate((takeoff) => {
      const api = window.limber as unknown as VaultApi;
      for (let i = 0; i < 400; i++) {
        const p = (api.vault() as VaultReport).position;
        if (p[2] >= takeoff) return p[2];
        api.advance(1);
      }
      return -1;
    }, z);
    expect(at, `reached the takeoff at z ${z}`).toBeGreaterThanOrEqual(z);
    await page.click('#vault-button');
    let first: string[] = [];
    if (z === 15.3) {
      // mid-vault over the clip's own box: the capsule shrunk, the hand planted
      first = await page.evaluate(() => {
        const api = window.limber as unknown as VaultApi;
        const states: string[] = [];
        for (let i = 0; i < 20; i++) {
          api.advance(1);
          const s = (api.vault() as VaultReport).state;
          if (states[states.length - 1] !== s) states.push(s);
        }
        return states;
      });
      await page.waitForTimeout(100);
      const png = await page.screenshot();
      writeFileSync(testInfo.outputPath('vault-course-mid-vault.png'), png);
      await testInfo.attach('vault-course-mid-vault.png', { body: png, contentType: 'image/png' });
    }
    // the vault (or the refusal) and its whole state run
    const rest = await page.evaluate((started) => {
      const api = window.limber as unknown as VaultApi;
      const states: string[] = [];
      if (started) states.push((api.vault() as VaultReport).state);
      for (let i = 0; i < 120; i++) {
        api.advance(1);
        const s = (api.vault() as VaultReport).state;
        if (states[states.length - 1] !== s) states.push(s);
        if (i > 0 && s === 'Idle') break;
      }
      return states;
    }, first.length > 0);
    const seen = [...first];
    for (const s of rest) if (seen[seen.length - 1] !== s) seen.push(s);
    perRequest.push(seen);
  }
  const r = await report(page);
  if (!r) throw new Error('no Vault');
  console.log(`button outcomes: ${r.outcomes.join(', ')}; per request: ${perRequest.map((s) => s.join('→')).join(' | ')}`);
  expect(r.outcomes).toEqual(['StepOver:NotVaultable', 'Vault:None', 'Vault:None', 'Vault:None', 'Vault:None', 'TooTall:NotVaultable']);
  for (const i of [1, 2, 3, 4]) expect(perRequest[i], `box ${i}`).toEqual(['Vaulting', 'Over', 'Landing', 'Idle']);
  for (const i of [0, 5]) expect(perRequest[i], `refused ${i}`).toEqual(['Idle']);
  await expect(page.locator('#vault-state')).toContainText('4 vaults, 2 refused');
  expect(errors).toEqual([]);
});
