/** Shared by the Playwright specs: the page API, opening the playground with error
 * collection, a PNG decoder for screenshots and the CLIs' hash. */
import { expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

/** The part of window.limber (web/playground/api.ts, PlaygroundApi) these tests use. */
export interface PlaygroundApi {
  hash(): string;
  steps(): number;
  paused(): boolean;
  handPosition(joint: string): Vec3;
  entityPosition(name: string): Vec3;
  dragTarget(name: string, position: Vec3): void;
  selected(): string | null;
  gizmoAxis(): string | null;
  screenPosition(p: Vec3): [number, number];
  switchHand(): void;
  grip(name: string): { mainHand: 'Right' | 'Left'; mainDistance: number; supportDistance: number; palms: Record<'main' | 'support', Vec3 | null> };
  three: { scene: unknown; camera: unknown; renderer: { render(scene: unknown, camera: unknown): void; getContext(): WebGL2RenderingContext | WebGLRenderingContext } };
}

declare global {
  interface Window {
    limber?: PlaygroundApi;
  }
}

export type Vec3 = [number, number, number];

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Opens the playground and collects console errors and page errors. */
export async function open(page: Page, query = ''): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  await page.goto(`/${query}`);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined, null, { timeout: 30_000 });
  const state = await page.evaluate(() => document.body.dataset.ready);
  expect(state, `page failed to start: ${await page.textContent('#error')}\n${errors.join('\n')}`).toBe('1');
  return errors;
}

export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const len = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const dist = (a: Vec3, b: Vec3): number => len(sub(a, b));

/** Tiny PNG decoder (8-bit RGB/RGBA, not interlaced: what Chromium writes). */
export function decodePng(buf: Buffer): { width: number; height: number; channels: number; pixels: Uint8Array } {
  expect(buf.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))).toBe(true);
  let off = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const n = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + n);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8], 'bit depth').toBe(8);
      expect(data[12], 'interlace').toBe(0);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]] ?? 0;
      expect(channels, `colour type ${data[9]}`).toBeGreaterThan(0);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + n;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels] : 0;
      const b = y > 0 ? pixels[out - stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = v & 255;
    }
  }
  return { width, height, channels, pixels };
}

/** The bone hash printed (last line) by a CLI. */
export function cliHash(cmd: string, args: string[]): string {
  const out = execFileSync(cmd, args, { cwd: root, encoding: 'utf8' });
  return out.trim().split('\n').pop()!.trim();
}

