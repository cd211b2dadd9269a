// Input logs (world.record / stopRecording / replay, `limber replay` in both CLIs): a player
// character on the vault-course level driven for 600 steps by the game's inputs (a damped
// MoveSpeed, controller moves, a vault request, a NavAgent inserted and sent somewhere, then
// stopped, an entity spawned, written and despawned), recorded and replayed headless in Node
// and natively with the same hash at every step; loads during a recording; tampered logs
// refused with a clear error and the world unchanged; recording makes no allocation in the
// core (the core sees the same allocations with and without it); a log recorded from a new world
// carries its own setup (a level, its Recast bake) and replays with no scene file.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { createWorld, LimberError, NavAgent, Transform, Vault, World } from '../../dist/web/bridge/index.js';
import { EXPORT_ROLES } from '../../dist/web/bridge/record.js';
import { instantiateLimber } from '../../dist/web/bridge/wasm.js';
import { crateCourse, vaultTheCrate } from './crate-course.mjs';

const DT = 1 / 60;
const abs = (p) => resolve(p);
const controller = JSON.parse(readFileSync('assets/scenes/nav-arena.json', 'utf8')).assets.controllers.locomotion;
// One scene file holds the whole setup, so the native CLI can set the world up the same way.
const SCENE = {
  name: 'player',
  description: 'A player character on the vault-course level: Mixamo mannequin, locomotion controller (damped MoveSpeed, Vault trigger), CharacterController, Vault, EnvironmentInteraction; the level\'s navmesh.',
  level: abs('assets/levels/vault-course.json'),
  assets: {
    rigs: { mannequin: { gltf: abs('assets/rigs/mannequin-mixamo.glb') } },
    controllers: { locomotion: controller },
    navmeshes: { course: { file: abs('assets/levels/vault-course.navmesh.json') } },
  },
  entities: [
    {
      name: 'hero',
      components: {
        Transform: { position: [0, 0, 6] },
        Rig: { asset: 'mannequin' },
        Animator: { controller: 'locomotion', applyRootMotion: true },
        CharacterController: { radius: 0.3, height: 1.8, center: [0, 0.9, 0], stepOffset: 0.35 },
        Vault: { hand: 'Left' },
        EnvironmentInteraction: {},
      },
    },
  ],
};
const dir = mkdtempSync(join(tmpdir(), 'limber-replay-'));
const scenePath = join(dir, 'player.json');
writeFileSync(scenePath, JSON.stringify(SCENE));

async function setup(options = {}) {
  const world = options.world ?? (await createWorld());
  const files = Object.fromEntries(world.sceneFiles(SCENE).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(SCENE, { files });
  return { world, scene, hero: scene.entity('hero') };
}

/** The game: reads the world, writes inputs, steps; the first half by scene.step, the second
 * by world.step. Returns the hash after every step. */
function play({ world, scene, hero }, steps = 600) {
  const hashes = [];
  const events = [];
  let marker = 0;
  world.anim.setParam(hero, 'MoveSpeed', 3.5, { damp: 0.2 });
  for (let i = 0; i < steps; i++) {
    const z = world.get(hero, Transform).position[2];
    const v = world.get(hero, Vault);
    if (world.inputOwner(hero, 'move') === null) world.controller.move(hero, [0.002 * Math.sin(i / 20), 0, 0]);
    if (v.state === 'Idle' && v.vaults === 0 && z > 9.25 && z < 9.6) {
      world.vault.request(hero);
      events.push(`vault requested at step ${i}, z ${z.toFixed(2)}`);
    }
    if (v.vaults === 1 && v.state === 'Idle' && !world.has(hero, NavAgent) && z > 11.5) {
      world.insert(hero, NavAgent, { navMesh: world.nav.find('course'), driveMode: 'Both', baseLocomotionParam: 1.4, movementSpeed: 1.4, radius: 0.3, stoppingDistance: 0.1 });
      world.nav.setDestination(hero, [0.6, 0, 14.2]);
      events.push(`nav destination at step ${i}, z ${z.toFixed(2)}`);
    }
    if (i === 420 && world.has(hero, NavAgent)) {
      world.nav.stop(hero);
      world.anim.setParam(hero, 'MoveSpeed', 0);
      events.push(`stopped at z ${z.toFixed(2)}`);
    }
    if (i === 300) {
      marker = world.spawn();
      world.insert(marker, Transform, { position: [1, 0, z] });
    }
    if (i === 350) world.update(marker, Transform, (t) => { t.position = [-1, 0.5, z]; });
    if (i === 400) world.despawn(marker);
    if (i === 500) world.anim.setParam(hero, 'MoveSpeed', 1.4, { damp: 0.3 });
    if (i < steps / 2) scene.step(DT);
    else world.step(DT);
    hashes.push(world.hash());
  }
  return { hashes, events };
}

const cli = (args) => execFileSync('build/native/limber', args, { encoding: 'utf8' }).trim().split('\n');

test('a 600-step player session recorded and replayed in Node, natively and by the TypeScript CLI: the same hash at every step', async () => {
  const live = await setup();
  live.world.record();
  const { hashes, events } = play(live);
  const log = live.world.stopRecording();
  assert.equal(live.world.recording, false);
  const text = JSON.stringify(log);
  const kinds = [...new Set(log.ops.map((o) => o[0]))];
  console.log(`# ${events.join('; ')}`);
  console.log(`# log: ${log.ops.length} ops (${kinds.join(', ')}), ${text.length} bytes of JSON for 600 steps; end ${log.end.hash}`);
  assert.equal(log.end.hash, hashes.at(-1));
  assert.equal(log.end.steps - log.start.steps, 600);
  for (const k of ['sceneStep', 'step', 'damp', 'float', 'move', 'vault', 'insert', 'set', 'spawn', 'despawn']) assert.ok(kinds.includes(k), `the log holds '${k}' ops`);
  assert.ok(events.length === 3, events.join('; '));
  assert.equal(live.world.get(live.hero, Vault).vaults, 1, 'vaulted the crate');
  // Node: a new world set up the same way, the log through JSON text
  const again = await setup();
  const replayed = [];
  const final = again.world.replay(JSON.parse(text), { onStep: (n, w) => replayed.push(w.hash()) });
  assert.equal(final, log.end.hash);
  assert.deepEqual(replayed, hashes, 'the same hash after every step');
  // natively, every step
  const logPath = join(dir, 'session.log.json');
  writeFileSync(logPath, text);
  const lines = cli(['replay', scenePath, logPath, '--every']);
  assert.deepEqual(lines.slice(0, -1), hashes.map((h, i) => `step ${i + 1} ${h}`));
  assert.equal(lines.at(-1), log.end.hash);
  // the TypeScript CLI
  assert.equal(execFileSync(process.execPath, ['dist/web/cli/limber.js', 'replay', scenePath, logPath], { encoding: 'utf8' }).trim(), log.end.hash);
});

test('loads during a recording (a level with its navmesh, a prop, a scene unloaded) and a negative zero are replayed in Node and natively', async () => {
  const live = await setup();
  const { world, hero } = live;
  world.record();
  const level = await world.loadLevel({ name: 'extra', pieces: [{ name: 'crate_x', kind: 'obstacle', shape: 'box', center: [1.5, 0.4, 8], size: [0.6, 0.8, 0.6] }, { name: 'wall_x', kind: 'wall', shape: 'box', center: [-1.8, 1, 8], size: [0.2, 2, 4] }] }, { navMesh: readFileSync('assets/levels/vault-course.navmesh.json', 'utf8') });
  const rifle = await world.loadProp('assets/props/rifle.json', { position: [3, 1, 3] });
  world.controller.move(hero, [-0, 0, 0.01]);
  world.anim.setParam(hero, 'MoveSpeed', 1.4);
  for (let i = 0; i < 90; i++) world.step(DT);
  rifle.destroy();
  world.update(level.entity('crate_x'), Transform, (t) => { t.position = [1.5, 0.4, -0]; });
  for (let i = 0; i < 30; i++) world.step(DT);
  const log = world.stopRecording();
  const text = JSON.stringify(log);
  assert.ok(text.includes('["move",1,"-0",0,0.009999999776482582]') || /"move",\d+,"-0"/.test(text), 'negative zero kept as "-0"');
  assert.deepEqual(log.ops.filter((o) => o[0] === 'scene' || o[0] === 'sceneUnload' || o[0] === 'navmeshJson').map((o) => o[0]), ['scene', 'navmeshJson', 'scene', 'sceneUnload']);
  const again = await setup();
  assert.equal(again.world.replay(JSON.parse(text)), log.end.hash);
  const logPath = join(dir, 'loads.log.json');
  writeFileSync(logPath, text);
  assert.equal(cli(['replay', scenePath, logPath]).at(-1), log.end.hash);
  console.log(`# with loads: ${log.ops.length} ops, ${text.length} bytes (the level and prop files inside); hash ${log.end.hash} in Node and natively`);
});

test('a log recorded from a new world carries its setup (level, Recast bake, spawns): replayed on an empty world in Node and by both CLIs with no scene', async () => {
  const world = await createWorld();
  world.record();
  const { hero } = await crateCourse(world);
  vaultTheCrate(world, hero);
  world.update(hero, NavAgent, () => ({ driveMode: 'NavDestination' }));
  world.nav.setDestination(hero, [0, 0, 7]);
  for (let i = 0; i < 60; i++) world.step(DT);
  const log = world.stopRecording();
  const text = JSON.stringify(log);
  const kinds = [...new Set(log.ops.map((o) => o[0]))];
  assert.ok(kinds.includes('scene') && kinds.includes('navmesh'), `the level and its bake are ops: ${kinds.join(', ')}`);
  const again = await createWorld();
  assert.deepEqual(log.start, { steps: 0, hash: again.hash() }, 'recorded from a new world');
  const replayed = [];
  assert.equal(again.replay(JSON.parse(text), { onStep: (n, w) => replayed.push(w.hash()) }), log.end.hash);
  const logPath = join(dir, 'from-empty.log.json');
  writeFileSync(logPath, text);
  const lines = cli(['replay', logPath, '--every']);
  assert.deepEqual(lines.slice(0, -1), replayed.map((h, i) => `step ${i + 1} ${h}`));
  assert.equal(lines.at(-1), log.end.hash);
  assert.equal(execFileSync(process.execPath, ['dist/web/cli/limber.js', 'replay', logPath], { encoding: 'utf8' }).trim(), log.end.hash);
  console.log(`# from an empty world: ${log.ops.length} ops (${kinds.join(', ')}), ${text.length} bytes, ${log.end.steps} steps; ${log.end.hash} in Node, natively and by the TypeScript CLI, no scene file`);
});

test('tampered logs: a bad op, a bad entity, another handle, the wrong version or start give a clear error and leave the world as it was', async () => {
  const live = await setup();
  live.world.record();
  play(live, 320);
  const log = live.world.stopRecording();
  const target = await setup();
  const before = { hash: target.world.hash(), steps: target.world.stepCount, entities: target.world.entityCount };
  const edit = (fn) => {
    const l = JSON.parse(JSON.stringify(log));
    fn(l);
    return l;
  };
  const at = (name) => log.ops.findIndex((o) => o[0] === name);
  const cases = [
    ['wrong version', edit((l) => { l.version = 2; }), 'LB_ERR_PARSE', /replay: field 'log\.version' is number 2; this build reads version 1/],
    ['wrong format', edit((l) => { l.format = 'something-else'; }), 'LB_ERR_PARSE', /log\.format/],
    ['unknown op', edit((l) => { l.ops.splice(3, 0, ['jump', live.hero]); }), 'LB_ERR_PARSE', /field 'log\.ops\[3\]\[0\]' = string "jump" is not an op/],
    ['an op short of an item', edit((l) => { l.ops[at('move')].pop(); }), 'LB_ERR_PARSE', new RegExp(`log\\.ops\\[${at('move')}\\]' \\('move'\\) must have 5 items, has 4`)],
    ['a string for a number', edit((l) => { l.ops[at('move')][2] = 'left'; }), 'LB_ERR_PARSE', /\('move'\) must be a finite number/],
    ['a dead entity', edit((l) => { l.ops[at('damp')][1] = 0x00100200; }), 'LB_ERR_STALE_ENTITY', new RegExp(`replay: log\\.ops\\[${at('damp')}\\] \\('damp' 1049088\\): .*entity 511v1`)],
    ['another handle', edit((l) => { l.ops[at('spawn')][1] += 1; }), 'LB_ERR_INVALID_ARGUMENT', /\('spawn' \d+\): got handle \d+ where the recording got \d+/],
    ['an unknown component', edit((l) => { l.ops[at('insert')][2] = 'Teleporter'; }), 'LB_ERR_UNKNOWN_NAME', /\('insert' \d+\): .*Teleporter/],
  ];
  for (const [what, bad, code, re] of cases) {
    assert.throws(() => target.world.replay(bad), (e) => {
      console.log(`  ${what}: ${e.message}`);
      return e instanceof LimberError && e.code === code && re.test(e.message);
    }, what);
    assert.deepEqual({ hash: target.world.hash(), steps: target.world.stepCount, entities: target.world.entityCount }, before, `${what}: the world is as it was`);
  }
  // a world that is not where the recording started
  target.world.step(DT);
  assert.throws(() => target.world.replay(log), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && /log\.start' is step 0 with hash [0-9a-f]{16}, but this world is at step 1/.test(e.message));
  // natively: the same refusals, exit status 1
  for (const [what, bad, re] of [['unknown op', cases[2][1], /input log: ops\[3\]: unknown op 'jump'/], ['wrong version', cases[0][1], /'version' is 2; this build reads version 1/], ['a dead entity', cases[5][1], /input log: ops\[\d+\] \('damp'\): .*entity 511v1/]]) {
    const p = join(dir, 'bad.log.json');
    writeFileSync(p, JSON.stringify(bad));
    const r = spawnSync('build/native/limber', ['replay', scenePath, p], { encoding: 'utf8' });
    console.log(`  native, ${what}: ${r.stderr.trim()}`);
    assert.equal(r.status, 1);
    assert.match(r.stderr, re);
  }
});

test('every export of limber.wasm is classified for the recorder (recorded, refused or a query)', async () => {
  const ex = await instantiateLimber(readFileSync(new URL('../../dist/web/bridge/limber.wasm', import.meta.url)));
  const missing = Object.keys(ex).filter((k) => k.startsWith('lbw_') && !(k in EXPORT_ROLES));
  assert.deepEqual(missing, [], 'a new export must be recorded or declared a query in record.ts EXPORT_ROLES');
  const stale = Object.keys(EXPORT_ROLES).filter((k) => !(k in ex));
  assert.deepEqual(stale, []);
  // refused while recording: what cannot be put in a log
  const { world } = await setup();
  const snap = world.snapshot();
  world.record();
  assert.throws(() => world.restore(snap), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT' && /restore: field 'world' is recording/.test(e.message));
  assert.throws(() => world.record(), (e) => /already recording/.test(e.message));
  assert.throws(() => world.rig.load(readFileSync('assets/rigs/mannequin-mixamo.glb')), (e) => /rig\.load \(a glTF file\) cannot be recorded/.test(e.message));
  world.stopRecording();
  assert.throws(() => world.stopRecording(), (e) => /is not recording/.test(e.message));
});

test('recording allocates nothing in the core: the same core allocations and memory with and without it', async () => {
  async function counted(record) {
    const raw = await instantiateLimber(readFileSync(new URL('../../dist/web/bridge/limber.wasm', import.meta.url)));
    const calls = new Map();
    const ex = { ...raw };
    for (const k of Object.keys(raw)) {
      if (typeof raw[k] !== 'function') continue;
      ex[k] = (...a) => {
        calls.set(k, (calls.get(k) ?? 0) + 1);
        return raw[k](...a);
      };
    }
    const s = await setup({ world: new World(ex) });
    calls.clear();
    if (record) s.world.record();
    play(s, 240);
    const log = record ? s.world.stopRecording() : null;
    return { calls, memory: raw.memory.buffer.byteLength, hash: s.world.hash(), log };
  }
  const plain = await counted(false);
  const rec = await counted(true);
  assert.equal(rec.hash, plain.hash);
  assert.equal(rec.calls.get('lbw_alloc'), plain.calls.get('lbw_alloc'), 'the same allocations through the bridge');
  assert.equal(rec.memory, plain.memory, 'the same wasm memory');
  // the only calls recording adds: reading a written component's previous value and name texts
  const extra = [...rec.calls].filter(([k, n]) => n !== (plain.calls.get(k) ?? 0)).map(([k, n]) => `${k} +${n - (plain.calls.get(k) ?? 0)}`);
  console.log(`# 240 steps: ${plain.calls.get('lbw_alloc')} lbw_alloc calls either way, memory ${plain.memory} bytes either way; recording adds ${extra.join(', ') || 'nothing'}; log ${rec.log.ops.length} ops`);
  for (const [k] of rec.calls) if ((rec.calls.get(k) ?? 0) !== (plain.calls.get(k) ?? 0)) assert.ok(['lbw_get', 'lbw_name_text', 'lbw_step_count', 'lbw_hash'].includes(k), `recording called ${k}`);
});
