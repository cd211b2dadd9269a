/** The example game (web/examples/vite-three) as a user gets it: `npm pack`, a fresh copy of
 * the app with the tarball installed by npm (not a path import), `vite build` + `vite preview`
 * and `vite` dev, each opened in Chromium. Checks: no console errors or failed requests, the
 * rendered right palm is on the rifle's grip (distance read from the page, from three.js's
 * bones), the page (no COOP/COEP) falls back to one thread without fetching limber-mt.wasm,
 * and the screenshot is not blank (saved as a test artifact). */
import { expect, test, type Page } from '@playwright/test';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error plain JS helper shared with the Node package tests
import { installApp, root } from '../package/pack.mjs';
import { decodePng } from './helpers.js';

let app: { dir: string; cleanup(): void };
const servers: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  app = installApp('vite-three', { extraFiles: { 'public/mannequin.glb': join(root, 'assets/rigs/mannequin-mixamo.glb') } });
});

test.afterAll(() => {
  for (const s of servers) if (s.pid) process.kill(s.pid);
  app?.cleanup();
});

/** Starts `vite <args>` in the app and resolves with the URL it prints. */
function serve(args: string[]): Promise<string> {
  const vite = join(app.dir, 'node_modules/vite/bin/vite.js');
  const child = spawn(process.execPath, [vite, ...args, '--host', '127.0.0.1', '--port', '0'], { cwd: app.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vite ${args.join(' ')} printed no URL:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      // eslint-disable-next-line no-control-regex
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`vite ${args.join(' ')} exited (${code}):\n${out}`)));
  });
}

async function check(page: Page, url: string, name: string): Promise<void> {
  const errors: string[] = [];
  page.on('console', (m) => {
    // Chromium's software GL reports its own stalls as warnings; they say nothing about the app.
    if ((m.type() === 'error' || m.type() === 'warning') && !m.text().includes('GL Driver Message')) errors.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  const wasm: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
    if (r.url().includes('.wasm')) wasm.push(`${r.status()} ${r.headers()['content-type']} ${r.url()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => ((window as unknown as { __example?: { frames: number } }).__example?.frames ?? 0) > 60 || document.getElementById('hud')!.textContent!.startsWith('error'), null, { timeout: 45_000 });
  const hud = await page.textContent('#hud');
  expect(hud, errors.join('\n')).not.toMatch(/^error/);
  const r = await page.evaluate(() => (window as unknown as { __example: { palmToGrip: number; mainDistance: number; supportDistance: number } }).__example);
  // The rendered palm (three.js bones after ExternalAnimation.afterStep) on the grip anchor.
  expect(r.palmToGrip, 'rendered right palm centre to the rifle grip anchor (m)').toBeLessThan(0.01);
  expect(r.mainDistance, 'GripHolder.mainDistance (m)').toBeLessThan(0.005);
  expect(r.supportDistance, 'GripHolder.supportDistance (m)').toBeLessThan(0.05);
  expect(wasm.length, 'limber.wasm was fetched').toBeGreaterThan(0);
  expect(wasm.every((w) => w.startsWith('200 application/wasm')), wasm.join('\n')).toBe(true);
  // The example's server sends no COOP/COEP: createWorld() falls back to one thread on
  // limber.wasm, silently (no console error above) and without fetching the threaded module.
  expect(await page.evaluate(() => crossOriginIsolated), 'the page is cross-origin isolated').toBe(false);
  expect(wasm.filter((w) => /limber-mt[\w-]*\.wasm/.test(w)), 'threaded module fetched in a non-isolated page').toEqual([]);
  const png = await page.screenshot();
  writeFileSync(test.info().outputPath(`${name}.png`), png);
  await test.info().attach(`${name}.png`, { body: png, contentType: 'image/png' });
  const img = decodePng(png);
  const colours = new Set<number>();
  let differing = 0;
  const bg = [img.pixels[0], img.pixels[1], img.pixels[2]];
  for (let i = 0; i < img.pixels.length; i += img.channels * 7) {
    const [r0, g0, b0] = [img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!];
    colours.add((r0 << 16) | (g0 << 8) | b0);
    if (Math.abs(r0 - bg[0]!) + Math.abs(g0 - bg[1]!) + Math.abs(b0 - bg[2]!) > 30) differing++;
  }
  expect(colours.size, 'distinct colours in the screenshot').toBeGreaterThan(50);
  expect(differing / (img.pixels.length / img.channels / 7), 'share of pixels unlike the background').toBeGreaterThan(0.03);
  expect(errors).toEqual([]);
}

test('example game: vite build + vite preview, from the packed tarball', async ({ page }) => {
  test.setTimeout(90_000);
  const out = execFileSync(process.execPath, [join(app.dir, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: app.dir, encoding: 'utf8', stdio: 'pipe' });
  expect(out, 'the build externalises no Node module').not.toMatch(/externali[sz]ed for browser compatibility|node:fs|node:url/);
  expect(out).toMatch(/limber-[\w-]+\.wasm/);
  await check(page, await serve(['preview']), 'example-preview');
});

test('example game: vite dev, from the packed tarball', async ({ page }) => {
  test.setTimeout(90_000);
  await check(page, await serve([]), 'example-dev');
});
