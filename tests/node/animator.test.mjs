// The Animator through the bridge over the wasm build: the locomotion scene with its glTF rig,
// parameters from TypeScript, transitions and cross-fades, blend-space weights, root motion,
// typed errors that change nothing, and the same hash over the SIMD and the scalar builds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Animator, createWorld, LimberError, Rig, Transform } from '../../dist/web/bridge/index.js';

const SCENE = 'assets/scenes/locomotion.json';
const DT = 1 / 60;
const text = readFileSync(SCENE, 'utf8');

async function load(wasm) {
  const world = await createWorld(wasm ? { wasm: new URL(`../../dist/web/bridge/${wasm}`, import.meta.url) } : {});
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  return { world, scene, hero: scene.entity('hero') };
}

const steps = (world, n) => {
  for (let i = 0; i < n; i++) world.step(DT);
};
const horizontal = (p) => Math.hypot(p[0], p[2]);

test('the scene lists its files; without them the load fails naming the path', async () => {
  const world = await createWorld();
  assert.deepEqual(world.sceneFiles(text), ['assets/rigs/mannequin-mixamo.glb']);
  assert.throws(() => world.loadScene(text), (err) => err instanceof LimberError && err.code === 'LB_ERR_UNKNOWN_NAME' && err.message.includes('assets/rigs/mannequin-mixamo.glb'));
});

test('Animator component: schema fields, defaults, outputs', async () => {
  const { world, hero } = await load();
  const a = world.get(hero, Animator);
  const schema = world.components.find((c) => c.name === 'Animator').fields.map((f) => f.name);
  assert.deepEqual(Object.keys(a).sort(), [...schema].sort());
  assert.equal(a.applyRootMotion, true);
  assert.equal(a.speed, 1);
  assert.equal(a.rootMotionVertical, false);
  assert.equal(a.state, 'Locomotion');
  const info = world.anim.controllerInfo(a.controller);
  console.log(`controller '${info.name}': ${JSON.stringify(info)}`);
  assert.deepEqual(info.params.map((p) => [p.name, p.type, p.default]), [['MoveSpeed', 'float', 0], ['Vault', 'trigger', false]]);
  assert.deepEqual(info.states[0].blend, { parameter: 'MoveSpeed', points: 3, min: 0, max: 3.5 });
  assert.equal(info.states[1].blend, null);
});

test('transitions: the trigger switches at the next step, the cross-fade sums to 1 and settles after its duration, the one-shot returns', async () => {
  const { world, hero } = await load();
  world.anim.setParam(hero, 'MoveSpeed', 1.4);
  steps(world, 30);
  world.anim.setTrigger(hero, 'Vault');
  assert.equal(world.anim.param(hero, 'Vault'), true);
  world.step(DT);
  assert.equal(world.get(hero, Animator).state, 'Vault');
  assert.equal(world.anim.param(hero, 'Vault'), false, 'consumed');
  let fadeSteps = 1;
  let maxSumError = 0;
  for (let s = world.anim.status(hero); s.weight < 1 && fadeSteps < 100; s = world.anim.status(hero)) {
    maxSumError = Math.max(maxSumError, Math.abs(s.layers.reduce((x, l) => x + l.weight, 0) - 1));
    assert.equal(s.previous, 'Locomotion');
    world.step(DT);
    fadeSteps++;
  }
  console.log(`fade 0.2 s: settled after ${fadeSteps} steps (expected 12), max |sum of weights - 1| = ${maxSumError.toExponential(1)}`);
  assert.ok(Math.abs(fadeSteps - 12) <= 1);
  assert.ok(maxSumError < 1e-6);
  let inVault = fadeSteps;
  while (world.get(hero, Animator).state === 'Vault' && inVault < 200) {
    world.step(DT);
    inVault++;
  }
  console.log(`vault one-shot returned to '${world.get(hero, Animator).state}' after ${inVault} steps (expected 55)`);
  assert.equal(world.get(hero, Animator).state, 'Locomotion');
  assert.ok(Math.abs(inVault - 55) <= 1);
});

// The shipped controller damps MoveSpeed by 0.1 s; these two tests measure the blend space and
// the clips' root motion, so they set the speed at once (damp 0). Damping has its own test.
const AT_ONCE = { damp: 0 };

test('blend space: weights from MoveSpeed, both clips at one phase', async () => {
  const { world, hero } = await load();
  for (const [speed, expected] of [[0, [['idle', 1]]], [0.7, [['idle', 0.5], ['walk', 0.5]]], [2.45, [['walk', 0.5], ['run', 0.5]]], [3.5, [['run', 1]]]]) {
    world.anim.setParam(hero, 'MoveSpeed', speed, AT_ONCE);
    steps(world, 5);
    const s = world.anim.status(hero);
    assert.deepEqual(s.layers.map((l) => l.clip), expected.map((e) => e[0]));
    s.layers.forEach((l, i) => assert.ok(Math.abs(l.weight - expected[i][1]) < 1e-6, `${speed}: ${l.clip} weight ${l.weight}`));
    if (s.layers.length === 2) {
      const dur = { idle: 2, walk: 1, run: 0.7 };
      const gap = Math.abs(s.layers[0].time / dur[s.layers[0].clip] - s.layers[1].time / dur[s.layers[1].clip]);
      assert.ok(gap < 1e-5, `phase gap ${gap}`);
    }
  }
});

test('root motion: one walk loop is the clip displacement; applyRootMotion moves the entity 1.4 m per walk second', async () => {
  const { world, hero } = await load();
  world.update(hero, Animator, (a) => { a.applyRootMotion = false; });
  world.anim.setParam(hero, 'MoveSpeed', 1.4, AT_ONCE);
  let x = 0, z = 0, heading = 0;
  for (let i = 0; i < 60; i++) {
    world.step(DT);
    const m = world.anim.rootMotion(hero);
    x += Math.cos(heading) * m.translation[0] + Math.sin(heading) * m.translation[2];
    z += -Math.sin(heading) * m.translation[0] + Math.cos(heading) * m.translation[2];
    heading += m.yaw;
  }
  const loop = Math.hypot(x, z);
  console.log(`root motion over one walk loop: ${loop.toFixed(6)} m (error ${Math.abs(loop - 1.4).toExponential(1)} m); Transform unmoved: ${JSON.stringify(world.get(hero, Transform).position)}`);
  assert.ok(Math.abs(loop - 1.4) < 1e-3);
  assert.deepEqual(world.get(hero, Transform).position, [0, 0, 0]);

  const second = await load();
  second.world.anim.setParam(second.hero, 'MoveSpeed', 1.4, AT_ONCE);
  steps(second.world, 60);
  const moved = horizontal(second.world.get(second.hero, Transform).position);
  console.log(`applyRootMotion: the entity walked ${moved.toFixed(6)} m in 1 s at 1.4 m/s`);
  assert.ok(Math.abs(moved - 1.4) < 1e-3);
  // Faster: the same second at run speed goes 3.5 m.
  const start = second.world.get(second.hero, Transform).position;
  second.world.anim.setParam(second.hero, 'MoveSpeed', 3.5, AT_ONCE);
  steps(second.world, 60);
  const end = second.world.get(second.hero, Transform).position;
  const ran = Math.hypot(end[0] - start[0], end[2] - start[2]);
  console.log(`then 1 s at 3.5 m/s: ${ran.toFixed(4)} m`);
  assert.ok(ran > 3.3 && ran < 3.6);
});

test('bad input: typed errors name the entity and the parameter; the world is unchanged', async () => {
  const { world, hero } = await load();
  const twin = await load();
  world.anim.setParam(hero, 'MoveSpeed', 2);
  twin.world.anim.setParam(twin.hero, 'MoveSpeed', 2);
  steps(world, 10);
  steps(twin.world, 10);
  const bad = [
    [() => world.anim.setParam(hero, 'Speed', 1), 'LB_ERR_UNKNOWN_NAME', /'Speed'/],
    [() => world.anim.setParam(hero, 'MoveSpeed', Number.NaN), 'LB_ERR_NOT_FINITE', /'MoveSpeed'/],
    [() => world.anim.setParam(hero, 'MoveSpeed', true), 'LB_ERR_INVALID_ARGUMENT', /is a float, not a bool/],
    [() => world.anim.setParam(hero, 'Vault', 1), 'LB_ERR_INVALID_ARGUMENT', /is a trigger, not a float/],
    [() => world.anim.setParam(hero, 'MoveSpeed', '1'), 'LB_ERR_INVALID_ARGUMENT', /number or a boolean/],
    [() => world.anim.setTrigger(hero, 'MoveSpeed'), 'LB_ERR_INVALID_ARGUMENT', /is a float, not a trigger/],
    [() => world.anim.setTrigger(world.spawn(), 'Vault'), 'LB_ERR_MISSING_COMPONENT', /has no Animator/],
    [() => world.update(hero, Animator, (a) => { a.speed = -2; }), 'LB_ERR_OUT_OF_RANGE', /'speed'/],
    [() => world.update(hero, Animator, (a) => { a.controller = world.get(hero, Rig).asset; }), 'LB_ERR_UNKNOWN_NAME', /not a controller/],
  ];
  for (const [fn, code, re] of bad) {
    assert.throws(fn, (err) => {
      console.log(`  ${err.message}`);
      return err instanceof LimberError && err.code === code && re.test(err.message);
    });
  }
  const e = world.spawn();
  world.insert(e, Transform, {});
  assert.throws(() => world.insert(e, Animator, { controller: world.get(hero, Animator).controller }), (err) => err.code === 'LB_ERR_MISSING_COMPONENT' && err.entity === e && err.component === 'Animator');
  world.despawn(e);
  assert.equal(world.anim.param(hero, 'MoveSpeed'), 2);
  steps(world, 30);
  steps(twin.world, 30);
  assert.equal(world.hash(), twin.world.hash(), 'the failed calls changed nothing');
});

test('controllers from TypeScript: addController over the scene rig clips, errors name the state', async () => {
  const { world, hero } = await load();
  const skeleton = world.get(hero, Rig).asset;
  const c = world.anim.addController(skeleton, {
    parameters: { Go: { type: 'bool' } },
    states: { Idle: { clip: 'idle' }, Walk: { clip: 'walk' } },
    transitions: [{ from: 'Idle', to: 'Walk', fade: 0, conditions: [{ parameter: 'Go', equals: true }] }],
  }, 'simple');
  world.update(hero, Animator, (a) => { a.controller = c; });
  assert.equal(world.get(hero, Animator).state, 'Idle');
  world.anim.setParam(hero, 'Go', true);
  world.step(DT);
  assert.equal(world.get(hero, Animator).state, 'Walk');
  assert.equal(world.anim.status(hero).weight, 1);
  assert.throws(() => world.anim.addController(skeleton, { states: { Idle: { clip: 'idel' } } }), (err) => err.code === 'LB_ERR_UNKNOWN_NAME' && /state 'Idle': no clip 'idel'/.test(err.message));
  assert.throws(() => world.anim.addController(skeleton, '{ "states": '), (err) => err.code === 'LB_ERR_PARSE');
});

test('determinism: parameter changes from TypeScript give the same hash over SIMD and scalar wasm', async () => {
  const hashes = [];
  for (const wasm of ['limber.wasm', 'limber-scalar.wasm', 'limber.wasm']) {
    const { world, hero } = await load(wasm);
    for (let i = 0; i < 240; i++) {
      if (i === 20) world.anim.setParam(hero, 'MoveSpeed', 1.1);
      if (i === 90) world.anim.setParam(hero, 'MoveSpeed', 3.2);
      if (i === 150) world.anim.setTrigger(hero, 'Vault');
      world.step(DT);
    }
    hashes.push(world.hash());
  }
  console.log(`hashes: ${hashes.join(' ')}`);
  assert.equal(new Set(hashes).size, 1);
});

test('a scene that fails after adding its assets changes nothing: the next load gets the same handles and hash as in a fresh world', async () => {
  const broken = text.replace('"applyRootMotion": true', '"applyRootMotion": true, "speed": 99');
  assert.notEqual(broken, text);
  const a = await createWorld();
  const files = Object.fromEntries(a.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const before = a.hash();
  assert.throws(() => a.loadScene(broken, { files }), (e) => e instanceof LimberError && e.code === 'LB_ERR_OUT_OF_RANGE' && /'speed'/.test(e.message));
  assert.equal(a.hash(), before);
  const sa = a.loadScene(text, { files });
  const b = await load();
  const ha = sa.entity('hero');
  assert.equal(ha, b.hero, 'the failed load left no entity behind');
  assert.equal(a.get(ha, Rig).asset, b.world.get(b.hero, Rig).asset, 'no skeleton left behind');
  assert.equal(a.get(ha, Animator).controller, b.world.get(b.hero, Animator).controller, 'no controller left behind');
  steps(a, 30);
  steps(b.world, 30);
  assert.equal(a.hash(), b.world.hash());
});

// ---- damped parameters (Unity's SetFloat with a damp time) -------------------------------------

/** Largest joint movement in model space (root motion applied, so the body's own motion, not
 * its travel; metres) between two steps, over the second after a run -> stop, with MoveSpeed's damping set by `damp` (controller JSON) and, when `perCall` is
 * given, by world.anim.setParam's { damp }. */
async function runToStop({ damp, perCall }) {
  const text = JSON.parse(readFileSync('assets/scenes/locomotion.json', 'utf8'));
  delete text.timeline;
  if (damp !== undefined) text.assets.controllers.locomotion.parameters.MoveSpeed.damp = damp;
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  const hero = scene.entity('hero');
  world.anim.setParam(hero, 'MoveSpeed', 3.5, perCall === undefined ? {} : { damp: perCall });
  for (let i = 0; i < 120; i++) scene.step(1 / 60); // running, settled
  const ran = world.anim.param(hero, 'MoveSpeed', { damped: true });
  world.anim.setParam(hero, 'MoveSpeed', 0, perCall === undefined ? {} : { damp: perCall });
  let prev = world.modelPose(hero).map((j) => [...j.t]);
  let worst = 0;
  const played = [];
  for (let i = 0; i < 60; i++) {
    scene.step(1 / 60);
    const now = world.modelPose(hero).map((j) => [...j.t]);
    for (let j = 0; j < now.length; j++) worst = Math.max(worst, Math.hypot(now[j][0] - prev[j][0], now[j][1] - prev[j][1], now[j][2] - prev[j][2]));
    prev = now;
    played.push(world.anim.param(hero, 'MoveSpeed', { damped: true }));
  }
  const set = world.anim.param(hero, 'MoveSpeed');
  world.destroy();
  return { worst, ran, played, set };
}

test('damped parameters: run -> stop moves no joint more than 0.1 m a step at 60 Hz with the shipped damp 0.1 s (0 s: one step)', async () => {
  const shipped = await runToStop({}); // the scene's controller as shipped: MoveSpeed damp 0.1 s
  const instant = await runToStop({ damp: 0 });
  const damped = await runToStop({ damp: 0.1 });
  const perCall = await runToStop({ damp: 0, perCall: 0.1 });
  console.log(`# run -> stop, largest joint step: undamped ${instant.worst.toFixed(3)} m, damp 0.1 s ${damped.worst.toFixed(3)} m (per call ${perCall.worst.toFixed(3)} m, shipped controller ${shipped.worst.toFixed(3)} m)`);
  assert.ok(instant.worst > 0.2, `without damping the stop is one jump (${instant.worst} m)`);
  assert.ok(shipped.worst <= 0.1, `the shipped locomotion controller: ${shipped.worst} m`);
  assert.equal(shipped.worst, damped.worst, 'the shipped controller damps MoveSpeed by 0.1 s');
  assert.equal(perCall.worst, damped.worst, 'setParam { damp } is the controller damping, bit for bit');
  assert.equal(damped.ran, 3.5, 'settled on the value set');
  assert.equal(damped.set, 0, 'param reads the value set');
  // The spring never passes the target and gets there: monotone down to exactly 0.
  for (let i = 1; i < damped.played.length; i++) assert.ok(damped.played[i] <= damped.played[i - 1] && damped.played[i] >= 0, `step ${i}: ${damped.played[i]}`);
  assert.ok(damped.played[5] > 0.5 && damped.played[5] < 3.0, `after 6 steps (0.1 s) on the way: ${damped.played[5]}`);
  assert.equal(damped.played.at(-1), 0, 'at rest after 1 s');
  assert.equal(instant.played[0], 0, 'undamped: at once');
});

test('damped parameters: bad damp values are refused and change nothing', async () => {
  const text = JSON.parse(readFileSync('assets/scenes/locomotion.json', 'utf8'));
  delete text.timeline;
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const hero = world.loadScene(text, { files }).entity('hero');
  for (const damp of [-1, NaN, Infinity, 1e9, '0.1']) {
    assert.throws(() => world.anim.setParam(hero, 'MoveSpeed', 1, { damp }), (err) => err instanceof LimberError && /damp/.test(err.message), `damp ${damp}`);
  }
  assert.equal(world.anim.param(hero, 'MoveSpeed'), 0);
  assert.throws(() => world.anim.setParam(hero, 'Vault', true, { damp: 0.1 }), (err) => err instanceof LimberError);
  const bad = JSON.parse(JSON.stringify(text));
  bad.assets.controllers.locomotion.parameters.Vault.damp = 0.1;
  assert.throws(() => world.loadScene(bad, { files }), (err) => err instanceof LimberError && /only float parameters are damped/.test(err.message));
  world.destroy();
});
