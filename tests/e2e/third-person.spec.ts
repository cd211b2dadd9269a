/** The third-person example game (web/examples/third-person) as a user gets it: `npm pack`, a
 * fresh copy of the app with the tarball installed by npm, `vite build` + `vite preview` in
 * Chromium. It is played by keyboard and mouse from a recorded input script: the page runs
 * with ?test=1, so nothing steps by itself and `window.__game.advance(n)` runs n fixed 60 Hz
 * steps with the keys and mouse as the script left them: the same steps on any machine.
 *
 * Checks, on the step records the page returns: the player walks the corridor along its left
 * wall (EnvironmentInteraction reaches Touch with the left hand), vaults the crate (Vault
 * states Idle -> Vaulting -> Over -> Landing -> Idle, the left hand planted), holds the rifle
 * (the main palm within 5 mm of its anchor on every step, the support palm on every step the
 * grip has that hand), switches to click-to-navigate, clicks a point and arrives (within the
 * agent's stopping distance plus one step at its speed); keys pressed while the agent drives
 * are ignored (world.inputOwner says NavAgent). A screenshot per phase is attached, and the
 * player's projected joints (head top to toes) are inside the frame in each.
 *
 * The page records its world's input log from the empty world on (?test=1 calls world.record()
 * before the game's setup, so the log holds the navmesh the page baked with Recast, the scene
 * with its files, and every input and step). The log is attached as an artifact and replayed on
 * a new, empty world in Node (world.replay, the installed package) and natively
 * (build/native/limber replay LOG --every): both give the browser's hash after every step.
 *
 * A second test opens the game where `npm start` serves it (/game/ on the playground's
 * server) and follows its link to the playground and the playground's link back. */
import { expect, test, type Page } from '@playwright/test';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error plain JS helper shared with the Node package tests
import { installApp, root } from '../package/pack.mjs';
// @ts-expect-error plain JS module of the example: the files the game fetches
import { GAME_FILES } from '../../web/examples/third-person/files.js';

type Vec3 = [number, number, number];
interface StepRecord {
  step: number;
  position: Vec3;
  touch: string;
  side: string;
  vault: string;
  refusal: string;
  plantedHand: string;
  grip: { mainDistance: number; supportDistance: number; supportWeight: number; supportRelease: number };
  palms: { main: number | null; support: number | null };
  nav: { mode: boolean; driveMode: string; hasDestination: boolean; arrived: boolean; remaining: number; target: Vec3 | null; arrivedAt: Vec3 | null };
  keysIgnored: boolean;
  owner: { move: string | null; moveSpeed: string | null };
}
interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  width: number;
  height: number;
  joints: number;
}
declare global {
  interface Window {
    __game?: {
      advance(n: number, draw?: boolean): StepRecord[];
      playerBox(): Box;
      project(p: Vec3): [number, number];
      camera(): { yaw: number; pitch: number; distance: number; applied: number };
      crowd(): { name: string; fromStart: number; legs: number; carries: boolean }[];
      stopRecording(): InputLog;
      hash(): string;
      world: { threads: number };
    };
  }
}

/** What the spec reads of an input log (web/bridge/record.ts InputLog). */
interface InputLog {
  format: string;
  start: { steps: number; hash: string };
  end: { steps: number; hash: string };
  ops: [string, ...unknown[]][];
}
/** The installed package's world, as far as the replay needs it. */
interface ReplayWorld {
  replay(log: InputLog, options: { onStep(step: number, world: ReplayWorld): void }): string;
  hash(): string;
}

/** One cue of the recorded input: at `step` (steps run so far), keys go down or up or are
 * pressed (down and up before the next step), the mouse drags (pixels) or clicks the screen
 * point of a world position, and a screenshot is taken. Recorded by playing the game with
 * ?test=1; the steps are where the player was at that time (corridor corner, crate). */
interface Cue {
  step: number;
  down?: string[];
  up?: string[];
  press?: string[];
  drag?: [number, number];
  wheel?: number;
  click?: Vec3;
  shot?: string;
}
const NAV_GOAL: Vec3 = [4, 0, 6];
const SCRIPT: Cue[] = [
  { step: 0, shot: 'start' },
  { step: 0, down: ['KeyW'] }, // down the corridor, its left wall within the left hand's reach
  { step: 150, shot: 'corridor-touch' },
  { step: 150, down: ['ShiftLeft'] }, // run
  { step: 294, drag: [-262, 0] }, // at the corner: orbit the camera a quarter turn left, W now leads round it
  { step: 507, press: ['Space'] }, // 1.2 m before the crate: vault
  { step: 512, drag: [170, 0] }, // the vault owns the moves: orbit to the player's left, to see the planted hand
  { step: 545, shot: 'vault' },
  { step: 580, up: ['KeyW', 'ShiftLeft'] },
  { step: 610, shot: 'landed' },
  { step: 610, drag: [-170, 0] }, // back behind the player, facing the open ground
  { step: 610, press: ['KeyN'] }, // click-to-navigate on
  { step: 611, click: NAV_GOAL },
  { step: 650, down: ['KeyD'] }, // keys while the NavAgent drives: ignored
  { step: 700, up: ['KeyD'], shot: 'navigating' },
  { step: 839, drag: [-380, 0], wheel: -240 }, // arrived: orbit round to the player's front right and zoom in, to see the rifle in both hands
  { step: 840, shot: 'arrived' },
];

/** Palm to anchor limit (m). */
const PALM_LIMIT = 0.005;
/** Steps the grip takes to blend in after the load. */
const GRIP_BLEND_STEPS = 30;
/** Arrival: the agent's stoppingDistance (0.1 m) plus one step at its speed (3.5 m/s / 60). */
const ARRIVAL_TOLERANCE = 0.1 + 3.5 / 60;

let app: { dir: string; cleanup(): void };
const servers: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const extraFiles = Object.fromEntries((GAME_FILES as string[]).map((p) => [`public/${p}`, join(root, p)]));
  app = installApp('third-person', { extraFiles });
  const out = execFileSync(process.execPath, [join(app.dir, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: app.dir, encoding: 'utf8', stdio: 'pipe' });
  expect(out, 'the build externalises no Node module').not.toMatch(/externali[sz]ed for browser compatibility|node:fs|node:url/);
  expect(out).toMatch(/limber-[\w-]+\.wasm/);
});

test.afterAll(() => {
  for (const s of servers) if (s.pid) process.kill(s.pid);
  app?.cleanup();
});

/** Starts `vite preview` in the app and resolves with the URL it prints. */
function preview(): Promise<string> {
  const vite = join(app.dir, 'node_modules/vite/bin/vite.js');
  const child = spawn(process.execPath, [vite, 'preview', '--host', '127.0.0.1', '--port', '0'], { cwd: app.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vite preview printed no URL:\n${out}`)), 30_000);
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
    child.on('exit', (code) => reject(new Error(`vite preview exited (${code}):\n${out}`)));
  });
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    // Chromium's software GL reports its own stalls as warnings; three.js notes a renamed shadow type.
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return errors;
}

async function openGame(page: Page, url: string, errors: string[]): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined, null, { timeout: 90_000 });
  const [state, error] = await page.evaluate(() => [document.body.dataset.ready, document.getElementById('error')?.textContent ?? '']);
  expect(state, `${error}\n${errors.join('\n')}`).toBe('1');
}

/** Screenshot of the phase, attached; the player's joints projected inside the frame. */
async function shot(page: Page, name: string): Promise<Box> {
  await page.evaluate(() => window.__game!.advance(0));
  const png = await page.screenshot();
  writeFileSync(test.info().outputPath(`${name}.png`), png);
  await test.info().attach(`${name}.png`, { body: png, contentType: 'image/png' });
  const box = await page.evaluate(() => window.__game!.playerBox());
  const where = `${name}: player box x ${box.minX.toFixed(0)}..${box.maxX.toFixed(0)}, y ${box.minY.toFixed(0)}..${box.maxY.toFixed(0)} of ${box.width} x ${box.height}`;
  expect(box.joints, where).toBe(65);
  expect(box.minX, where).toBeGreaterThanOrEqual(0);
  expect(box.minY, where).toBeGreaterThanOrEqual(0);
  expect(box.maxX, where).toBeLessThanOrEqual(box.width);
  expect(box.maxY, where).toBeLessThanOrEqual(box.height);
  // Not a speck: head to feet spans at least a tenth of the frame's height.
  expect(box.maxY - box.minY, where).toBeGreaterThan(box.height / 10);
  return box;
}

/** Plays the script; returns every step's record. */
async function play(page: Page): Promise<{ log: StepRecord[]; boxes: Record<string, Box>; turns: Record<number, number>; zooms: Record<number, number> }> {
  const log: StepRecord[] = [];
  const boxes: Record<string, Box> = {};
  const turns: Record<number, number> = {};
  const zooms: Record<number, number> = {};
  for (const cue of SCRIPT) {
    const n = cue.step - log.length;
    expect(n, `cue at step ${cue.step}`).toBeGreaterThanOrEqual(0);
    if (n > 0) log.push(...(await page.evaluate((k) => window.__game!.advance(k, false), n)));
    for (const k of cue.down ?? []) await page.keyboard.down(k);
    for (const k of cue.up ?? []) await page.keyboard.up(k);
    for (const k of cue.press ?? []) await page.keyboard.press(k);
    if (cue.drag) {
      const before = (await page.evaluate(() => window.__game!.camera())).yaw;
      const [x, y] = [640, 400];
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + Math.sign(cue.drag[0]) * 10, y);
      await page.mouse.move(x + cue.drag[0], y + cue.drag[1], { steps: 10 });
      await page.mouse.up();
      turns[cue.step] = (await page.evaluate(() => window.__game!.camera())).yaw - before;
    }
    if (cue.wheel) {
      const before = (await page.evaluate(() => window.__game!.camera())).distance;
      await page.mouse.move(640, 400);
      await page.mouse.wheel(0, cue.wheel);
      await expect.poll(async () => (await page.evaluate(() => window.__game!.camera())).distance, 'the wheel zooms').not.toBe(before);
      zooms[cue.step] = (await page.evaluate(() => window.__game!.camera())).distance / before;
    }
    if (cue.click) {
      const [x, y] = await page.evaluate((p) => window.__game!.project(p), cue.click);
      expect(x > 0 && x < 1280 && y > 0 && y < 720, `the click target ${cue.click} on screen at ${x}, ${y}`).toBe(true);
      await page.mouse.click(x, y);
    }
    if (cue.shot) boxes[cue.shot] = await shot(page, cue.shot);
  }
  return { log, boxes, turns, zooms };
}

/** The distinct values of `pick` in order (runs collapsed). */
const runs = (log: StepRecord[], pick: (r: StepRecord) => string): string[] => log.map(pick).filter((v, i, a) => i === 0 || a[i - 1] !== v);
const flat = (a: Vec3, b: Vec3): number => Math.hypot(a[0] - b[0], a[2] - b[2]);

test('third-person game from the packed tarball: corridor touch, vault, rifle in hand, click-to-navigate', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const url = await preview();
  await openGame(page, `${url}?test=1`, errors);
  // vite preview sends COOP/COEP (the example's vite.config.js): the packed package runs
  // limber-mt.wasm on Web Workers; the replays below check the same hash as one thread.
  expect(await page.evaluate(() => window.__game!.world.threads), 'threads in the isolated page').toBeGreaterThan(1);
  const { log, turns, zooms } = await play(page);
  expect(log.length).toBe(SCRIPT.at(-1)!.step);
  expect(turns[294], 'the drag at the corner turned the camera a quarter turn left (rad)').toBeCloseTo(Math.PI / 2, 2);
  expect(zooms[839], 'the wheel brought the camera in (distance ratio)').toBeLessThan(0.8);

  // Corridor: the left hand on the left wall while walking.
  const corridor = log.slice(0, 150);
  expect(runs(corridor, (r) => r.touch), 'EnvironmentInteraction states in the corridor').toEqual(['Search', 'Approach', 'Rise', 'Touch']);
  expect(corridor.filter((r) => r.touch === 'Touch').every((r) => r.side === 'Left')).toBe(true);
  expect(corridor.filter((r) => r.touch === 'Touch').length, 'steps touching the wall').toBeGreaterThan(60);
  expect(log[149]!.position[0], 'walked down the lane (world -X)').toBeLessThan(11);

  // Vault: the crate (near face z = -5.7, far face -5.3) cleared with the left hand planted.
  const vault = log.slice(507, 610);
  expect(runs(vault, (r) => r.vault), 'Vault states after Space').toEqual(['Vaulting', 'Over', 'Landing', 'Idle']);
  expect(vault.some((r) => r.plantedHand === 'Left'), 'the left hand planted').toBe(true);
  expect(vault.some((r) => r.grip.supportRelease > 0), 'the vault took the support hand off the rifle').toBe(true);
  expect(vault.every((r) => r.refusal === 'None')).toBe(true);
  expect(log[506]!.position[2], 'before the crate').toBeLessThan(-5.7);
  expect(log[609]!.position[2], 'past the crate').toBeGreaterThan(-5.3);

  // The rifle: the main palm on its anchor on every step; the support palm whenever the grip
  // has that hand (the game lets it go along walls, the vault takes it for the plant).
  let supportHeld = 0;
  let worstMain = 0;
  let worstSupport = 0;
  for (const r of log.slice(GRIP_BLEND_STEPS)) {
    worstMain = Math.max(worstMain, r.palms.main!);
    if (r.grip.supportWeight === 1 && r.grip.supportRelease === 0) {
      supportHeld++;
      worstSupport = Math.max(worstSupport, r.palms.support!);
    }
  }
  console.log(`rifle: main palm <= ${(worstMain * 1000).toFixed(3)} mm on ${log.length - GRIP_BLEND_STEPS} steps; support palm <= ${(worstSupport * 1000).toFixed(3)} mm on the ${supportHeld} steps the grip has it`);
  expect(worstMain, 'main palm to its anchor (m), every step').toBeLessThanOrEqual(PALM_LIMIT);
  expect(worstSupport, 'support palm to its anchor (m) while held').toBeLessThanOrEqual(PALM_LIMIT);
  expect(supportHeld, 'steps with both hands on the rifle').toBeGreaterThan(300);
  // Re-gripped after the vault: both hands on the rifle once the plant's blend is over.
  const regrip = vault.findIndex((r, i) => i > 0 && vault[i - 1]!.grip.supportRelease > 0 && r.grip.supportRelease === 0);
  expect(regrip, 'the plant let go').toBeGreaterThan(0);
  expect(vault[regrip]!.palms.support!, 'support palm right after the plant let go (m)').toBeLessThanOrEqual(PALM_LIMIT);
  for (const i of [609, 839]) {
    expect(log[i]!.palms.main!).toBeLessThanOrEqual(PALM_LIMIT);
    expect(log[i]!.palms.support!, `support palm at step ${i + 1}`).toBeLessThanOrEqual(PALM_LIMIT);
  }

  // Click-to-navigate: the click lands on the goal, the NavAgent takes over and arrives.
  const nav = log.slice(611);
  const target = nav[0]!.nav.target!;
  expect(target, 'a destination from the click').not.toBeNull();
  expect(flat(target, NAV_GOAL), 'clicked point to the goal (m)').toBeLessThan(0.05);
  expect(nav[0]!.owner.moveSpeed).toBe('NavAgent');
  const ignored = log.slice(650, 700);
  expect(ignored.every((r) => r.keysIgnored && r.owner.moveSpeed === 'NavAgent'), 'keys while the agent drives are ignored').toBe(true);
  const arrived = nav.find((r) => r.nav.arrivedAt !== null);
  expect(arrived, 'arrived within the script').toBeDefined();
  const miss = flat(arrived!.nav.arrivedAt!, target);
  console.log(`navigation: arrived at step ${arrived!.step}, ${(miss * 1000).toFixed(0)} mm from the clicked point (tolerance ${(ARRIVAL_TOLERANCE * 1000).toFixed(0)} mm)`);
  expect(miss, 'arrival to the clicked point (m)').toBeLessThanOrEqual(ARRIVAL_TOLERANCE);
  expect(log.at(-1)!.owner.moveSpeed, 'the keys drive again after arriving').toBeNull();

  // The crowd: 30 NPCs, a third carrying props, all walking their routes between points.
  const crowd = await page.evaluate(() => window.__game!.crowd());
  const legs = crowd.reduce((sum, n) => sum + n.legs, 0);
  const least = Math.min(...crowd.map((n) => n.fromStart));
  console.log(`crowd: ${crowd.length} NPCs, ${crowd.filter((n) => n.carries).length} carrying, ${legs} route legs finished in ${log.length} steps, each at least ${least.toFixed(2)} m from its start`);
  expect(crowd.length).toBe(30);
  expect(crowd.filter((n) => n.carries).length).toBe(10);
  expect(least, 'every NPC walked away from its start (m)').toBeGreaterThan(1);
  expect(legs, 'route legs finished by the crowd').toBeGreaterThanOrEqual(15);
  await replaySession(page);
  expect(errors).toEqual([]);
});

/** The session's input log: an artifact, then replayed on a new, empty world in Node (the
 * installed package) and natively, each step's hash against the other's and the last against the
 * browser's. */
async function replaySession(page: Page): Promise<void> {
  const browserHash = await page.evaluate(() => window.__game!.hash());
  const log = await page.evaluate(() => window.__game!.stopRecording());
  const kinds = log.ops.reduce<Record<string, number>>((m, op) => ({ ...m, [op[0]]: (m[op[0]] ?? 0) + 1 }), {});
  const logPath = test.info().outputPath('third-person.input-log.json');
  writeFileSync(logPath, JSON.stringify(log));
  await test.info().attach('third-person.input-log.json', { path: logPath, contentType: 'application/json' });
  const bytes = readFileSync(logPath).length;
  console.log(`input log: ${log.ops.length} ops (${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')}), ${(bytes / 1024).toFixed(0)} KB, ${log.end.steps} steps, browser hash ${browserHash}`);
  expect(log.start, 'recorded from the empty world').toEqual({ steps: 0, hash: 'cbf29ce484222325' });
  expect(log.end.hash, "the log's end is the browser's hash").toBe(browserHash);
  expect(kinds['navmesh'], 'the baked navmesh is an op of the log').toBe(1);
  expect(kinds['scene'], 'the scene (level, rig file, player, NPCs) is an op of the log').toBe(1);

  const limber = (await import(pathToFileURL(join(app.dir, 'node_modules/limber/dist/web/bridge/index.js')).href)) as { createWorld(): Promise<ReplayWorld> };
  const fresh = await limber.createWorld();
  const nodeSteps: string[] = [];
  const nodeHash = fresh.replay(JSON.parse(readFileSync(logPath, 'utf8')) as InputLog, { onStep: (_n, w) => nodeSteps.push(w.hash()) });

  const native = join(root, 'build/native/limber');
  expect(existsSync(native), `${native} (node scripts/build.mjs native)`).toBe(true);
  const lines = execFileSync(native, ['replay', logPath, '--every'], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim().split('\n');
  const nativeHash = lines.at(-1);
  const nativeSteps = lines.slice(0, -1).map((l) => l.split(' ')[2]);
  const firstDiff = nodeSteps.findIndex((h, i) => nativeSteps[i] !== h);
  console.log(`replay: Node ${nodeHash}, native ${nativeHash} after ${nodeSteps.length} steps (browser ${browserHash}); per-step hashes ${firstDiff < 0 ? 'all equal' : `differ from step ${firstDiff + 1}`}`);
  expect(nodeSteps.length, 'steps replayed').toBe(log.end.steps);
  expect(nativeSteps.length, 'steps replayed natively').toBe(log.end.steps);
  expect(firstDiff, 'first step whose Node and native hashes differ (-1: none)').toBe(-1);
  expect(nodeHash, 'Node replay = browser').toBe(browserHash);
  expect(nativeHash, 'native replay = browser').toBe(browserHash);
}

test('npm start serves the game at /game/, one click from the playground and back', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await openGame(page, '/game/?test=1', errors);
  await page.evaluate(() => window.__game!.advance(10));
  await expect(page.locator('#playground-link')).toBeVisible();
  await Promise.all([page.waitForURL((u) => u.pathname === '/'), page.click('#playground-link')]);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined, null, { timeout: 60_000 });
  expect(await page.evaluate(() => document.body.dataset.ready)).toBe('1');
  expect(new URL(page.url()).pathname).toBe('/');
  await Promise.all([page.waitForURL((u) => u.pathname === '/game/'), page.click('#game-link')]);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined && window.__game !== undefined, null, { timeout: 90_000 });
  expect(new URL(page.url()).pathname).toBe('/game/');
  expect(errors).toEqual([]);
});
