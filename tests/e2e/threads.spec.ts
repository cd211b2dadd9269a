/** Threads in Chromium (issue 36): the playground's dev server sends COOP/COEP, so the page is
 * cross-origin isolated and createWorld() runs limber-mt.wasm on one thread per core, its
 * workers Web Workers on shared memory. The world gets more than one thread, the HUD says how
 * many, and the bone hash after every stored scene's steps (default, ?threads=4) is the
 * single-threaded one (?threads=1) and the stored one. */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { open, root } from './helpers.js';

const expected = JSON.parse(readFileSync(join(root, 'tests/expected-hashes.json'), 'utf8')) as Record<string, string>;

interface ThreadsApi {
  world: { threads: number };
  hash(): string;
}

async function state(page: Page): Promise<{ isolated: boolean; threads: number; hash: string; hud: string }> {
  return page.evaluate(() => {
    const api = window.limber as unknown as ThreadsApi;
    return { isolated: crossOriginIsolated, threads: api.world.threads, hash: api.hash(), hud: document.getElementById('threads')?.textContent ?? '' };
  });
}

// Every stored scene the playground serves (assets/scenes/; the test-only ones are covered in
// Node and natively): the default thread count (one per core), 4 threads (more workers than
// this machine's cores) and 1 thread give the stored hash.
const scenes = Object.keys(expected)
  .map((key) => key.split('@') as [string, string])
  .filter(([file]) => !file.includes('/'));

for (const [scene, steps] of scenes) {
  test(`${scene}@${steps}: threads by default in an isolated page, 4 threads and 1 thread: the stored hash`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = await open(page, `?scene=${scene}&steps=${steps}&paused=1`);
    const mt = await state(page);
    expect(mt.isolated, 'the dev server sends COOP/COEP').toBe(true);
    expect(mt.threads).toBeGreaterThan(1);
    expect(mt.hud).toBe(`${mt.threads} threads`);

    await open(page, `?scene=${scene}&steps=${steps}&paused=1&threads=4`);
    const four = await state(page);
    expect(four.threads).toBe(4);
    expect(four.hud).toBe('4 threads');

    await open(page, `?scene=${scene}&steps=${steps}&paused=1&threads=1`);
    const one = await state(page);
    expect(one.threads).toBe(1);
    expect(one.hud).toBe('1 thread');
    expect(mt.hash).toBe(one.hash);
    expect(four.hash).toBe(one.hash);
    expect(mt.hash, 'the stored hash').toBe(expected[`${scene}@${steps}`]);
    expect(errors).toEqual([]);
  });
}
