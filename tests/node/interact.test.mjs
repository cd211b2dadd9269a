// EnvironmentInteraction through the bridge over the wasm build: the corridor scene (a level
// loaded as colliders), the outputs read from TypeScript as the walk goes (state, side,
// target, weights, palm distance), typed errors that change nothing, and the same outputs
// over the SIMD and the scalar builds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Collider, createWorld, EnvironmentInteraction, GripHolder, LimberError, Transform } from '../../dist/web/bridge/index.js';

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

test('a rifle in the right hand and the right wall nearer: the free left hand takes the left wall (both hands on the rifle: none)', async () => {
  const run = async (supportWeight) => {
    const world = await createWorld();
    const loco = JSON.parse(readFileSync('assets/scenes/locomotion.json', 'utf8'));
    delete loco.timeline;
    loco.entities[0].components.EnvironmentInteraction = { handOffset: 0.015 };
    const files = Object.fromEntries(world.sceneFiles(loco).map((p) => [p, readFileSync(p)]));
    const scene = world.loadScene(loco, { files });
    const hero = scene.entity('hero');
    // a corridor 1.0 m wide along +Z; facing +Z the right side is -X, its wall 4 cm nearer
    const level = await world.loadLevel({
      name: 'narrow',
      pieces: [
        { name: 'wall_right', kind: 'wall', shape: 'box', center: [-0.58, 1.25, 5], size: [0.2, 2.5, 12] },
        { name: 'wall_left', kind: 'wall', shape: 'box', center: [0.62, 1.25, 5], size: [0.2, 2.5, 12] },
      ],
    });
    const rifle = await world.loadProp('assets/props/rifle.json', { position: [0.2, 1.2, 0.3] });
    world.insert(hero, GripHolder, { held: rifle.entity, mainHand: 'Right', blendSeconds: 0.25 });
    scene.step(DT);
    world.grip.placeTwoHanded(hero);
    world.update(hero, GripHolder, () => ({ supportWeight }));
    world.anim.setParam(hero, 'MoveSpeed', 1.4);
    let touch = 0;
    let right = 0;
    let palm = 0;
    let main = 0;
    for (let i = 0; i < 240; i++) {
      scene.step(DT);
      const ei = world.get(hero, EnvironmentInteraction);
      if (ei.side === 'Right') right++;
      if (ei.state === 'Touch') {
        touch++;
        palm = Math.max(palm, Math.abs(ei.palmDistance));
        assert.equal(ei.side, 'Left');
        assert.equal(ei.wall, level.entity('wall_left'));
      }
      if (i >= 30) main = Math.max(main, world.get(hero, GripHolder).mainDistance);
    }
    const z = world.get(hero, Transform).position[2];
    world.destroy();
    return { touch, right, palm, main, z };
  };
  const free = await run(0);
  const both = await run(1);
  console.log(`# right wall 4 cm nearer, rifle in the right hand, walking to z ${free.z.toFixed(2)}: support hand let go -> ${free.touch} of 240 steps in Touch on the left wall (palm <= ${(free.palm * 1000).toFixed(1)} mm from it, handOffset 15 mm; main palm <= ${(free.main * 1000).toFixed(2)} mm on the rifle); both hands on the rifle -> ${both.touch}; steps on the right side: ${free.right + both.right}`);
  assert.ok(free.touch > 60, `touch steps ${free.touch}`);
  assert.ok(free.palm <= 0.02, `palm ${free.palm}`);
  assert.ok(free.main <= 0.005, `main palm ${free.main}`);
  assert.equal(both.touch, 0);
  assert.equal(free.right + both.right, 0, 'the rifle hand never touches');
});
