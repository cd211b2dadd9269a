// EnvironmentInteraction through the bridge over the wasm build: the corridor scene (a level
// loaded as colliders), the outputs read from TypeScript as the walk goes (state, side,
// target, weights, palm distance), typed errors that change nothing, and the same outputs
// over the SIMD and the scalar builds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Collider, createWorld, EnvironmentInteraction, LimberError, Transform } from '../../dist/web/bridge/index.js';

const SCENE = 'assets/scenes/corridor.json';
const DT = 1 / 60;
const text = readFileSync(SCENE, 'utf8');

async function load(wasm) {
  const world = await createWorld(wasm ? { wasm: new URL(`../../dist/web/bridge/${wasm}`, import.meta.url) } : {});
  const files = Object.fromEntries(world.sceneFiles(text).map((p) => [p, readFileSync(p)]));
  const scene = world.loadScene(text, { files });
  return { world, scene, hero: scene.entity('hero') };
}

test('the corridor scene lists its rig and its level; the level pieces are named colliders', async () => {
  const { world, scene } = await load();
  assert.deepEqual(world.sceneFiles(text), ['assets/rigs/mannequin-mixamo.glb', 'assets/levels/corridor.json']);
  const wall = world.get(scene.entity('wall_left_01'), Collider);
  assert.equal(wall.shape, 'Box');
  assert.equal(wall.layer, 2);
  assert.deepEqual(world.get(scene.entity('wall_left_01'), Transform).position, [0.7, 1.25, 1.25].map(Math.fround));
  assert.equal(world.get(scene.entity('floor'), Collider).layer, 1);
});

test('outputs from TypeScript: Search, Approach, Rise, Touch on the left wall, Reset at the gap', async () => {
  const { world, hero } = await load();
  const seen = [];
  let touch = null;
  for (let i = 0; i < 170; i++) {
    world.step(DT);
    const d = world.get(hero, EnvironmentInteraction);
    if (seen[seen.length - 1] !== d.state) seen.push(d.state);
    if (i === 99) touch = d;
  }
  console.log(`states: ${seen.join(' → ')}; step 100: ${touch.state} ${touch.side} L${touch.leftWeight} palm ${touch.palmDistance.toFixed(4)} m, target ${touch.target.map((v) => v.toFixed(3)).join(', ')}`);
  assert.deepEqual(seen, ['Search', 'Approach', 'Rise', 'Touch', 'Reset', 'Search']);
  assert.equal(touch.state, 'Touch');
  assert.equal(touch.side, 'Left');
  assert.equal(touch.leftWeight, 1);
  assert.equal(touch.rightWeight, 0);
  assert.ok(touch.palmDistance >= 0 && touch.palmDistance <= 0.02);
  assert.ok(Math.abs(touch.target[0] - 0.585) < 0.002, 'target 1.5 cm off the left wall face (x = 0.6)');
  assert.ok(touch.wall !== 0);
});

test('bad input is a typed error naming the field; the world is unchanged', async () => {
  const { world, hero, scene } = await load();
  for (let i = 0; i < 30; i++) world.step(DT);
  const before = world.get(hero, EnvironmentInteraction);
  const hash = world.hash();
  const cases = [
    [{ releaseReach: 0.5, engageReach: 0.9 }, 'LB_ERR_OUT_OF_RANGE', 'releaseReach'],
    [{ height: Number.NaN }, 'LB_ERR_NOT_FINITE', 'height'],
    [{ handOffset: -1 }, 'LB_ERR_OUT_OF_RANGE', 'handOffset'],
    [{ leftHand: 'NoSuchHand' }, 'LB_ERR_JOINT_NOT_FOUND', 'leftHand'],
  ];
  for (const [fields, code, field] of cases) {
    assert.throws(() => world.update(hero, EnvironmentInteraction, (c) => Object.assign(c, fields)), (err) => {
      console.log(`  ${JSON.stringify(fields)}: ${err.message}`);
      return err instanceof LimberError && err.code === code && err.message.includes(field) && err.message.includes('EnvironmentInteraction');
    });
    assert.deepEqual(world.get(hero, EnvironmentInteraction), before);
  }
  const wall = scene.entity('wall_left_01');
  assert.throws(() => world.insert(wall, EnvironmentInteraction, {}), (err) => err.code === 'LB_ERR_MISSING_COMPONENT' && err.component === 'EnvironmentInteraction');
  assert.equal(world.has(wall, EnvironmentInteraction), false);
  assert.equal(world.hash(), hash);
});

test('SIMD and scalar builds give the same outputs every step', async () => {
  const a = await load('limber.wasm');
  const b = await load('limber-scalar.wasm');
  for (let i = 0; i < 300; i++) {
    a.world.step(DT);
    b.world.step(DT);
    assert.deepEqual(a.world.get(a.hero, EnvironmentInteraction), b.world.get(b.hero, EnvironmentInteraction), `step ${i + 1}`);
  }
  assert.equal(a.world.hash(), b.world.hash());
});

test('a level given by its path alone: walls on layers 0 and 1, the floor on 0; a default EnvironmentInteraction touches them', async () => {
  // the corridor scene with "level": "<path>" and no interactableLayers (default bit 1): before,
  // the walls were on the Collider default layer 1 and the hand never touched (0 of 180 steps)
  const scene = JSON.parse(text);
  scene.level = 'assets/levels/corridor.json';
  const hero = scene.entities.find((e) => e.name === 'hero').components;
  delete hero.EnvironmentInteraction.interactableLayers;
  const world = await createWorld();
  const files = Object.fromEntries(world.sceneFiles(scene).map((p) => [p, readFileSync(p)]));
  const loaded = world.loadScene(scene, { files });
  assert.equal(world.get(loaded.entity('wall_left_01'), Collider).layer, 3);
  assert.equal(world.get(loaded.entity('floor'), Collider).layer, 1);
  const e = loaded.entity('hero');
  assert.equal(world.get(e, EnvironmentInteraction).interactableLayers, 2, 'the default');
  let touching = 0;
  for (let i = 0; i < 180; i++) {
    loaded.step(DT);
    if (world.get(e, EnvironmentInteraction).state === 'Touch') touching++;
  }
  console.log(`string-form level, default layers: the hand touches a wall in ${touching} of 180 steps`);
  assert.ok(touching > 30, `${touching} steps touching`);
  // the same walk as the scene that lists its layers (walls 2, floor 1)
  const listed = await load();
  for (let i = 0; i < 180; i++) listed.scene.step(DT);
  assert.equal(world.hash(), listed.world.hash());
});
