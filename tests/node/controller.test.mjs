// CharacterController from TypeScript: world.controller.move goes through the Move phase
// (collide-and-slide against a wall), outputs read back, degenerate values and bad calls
// refused with a message naming entity, component and field, the world unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CharacterController, Collider, Transform, createWorld } from '../../dist/web/bridge/index.js';

async function room() {
  const world = await createWorld();
  const floor = world.spawn();
  world.insert(floor, Transform, { position: [0, -0.05, 0] });
  world.insert(floor, Collider, { shape: 'Box', size: [10, 0.1, 10] });
  const wall = world.spawn();
  world.insert(wall, Transform, { position: [0, 1, 2.1] });
  world.insert(wall, Collider, { shape: 'Box', size: [4, 2, 0.2] });
  const hero = world.spawn();
  world.insert(hero, Transform, { position: [0, 0.01, 0] });
  world.insert(hero, CharacterController, {});
  return { world, floor, wall, hero };
}

test('moveController: walks into a wall and stops skinWidth short of it; outputs name the wall', async () => {
  const { world, wall, hero } = await room();
  for (let i = 0; i < 120; i++) {
    world.controller.move(hero, [0, 0, 1.4 / 60]);
    world.step(1 / 60);
  }
  const p = world.get(hero, Transform).position;
  const cc = world.get(hero, CharacterController);
  assert.ok(Math.abs(p[2] - (2.0 - 0.3 - 0.01)) < 1e-4, `stopped at z ${p[2]}`);
  assert.equal(cc.grounded, true);
  assert.deepEqual(cc.move, [0, 0, 0]);
  assert.ok(Math.abs(cc.requested[2] - 1.4 / 60) < 1e-6);
  assert.ok(cc.hitCount >= 2);
  assert.ok([cc.hitEntity0, cc.hitEntity1].includes(wall));
  world.destroy();
});

test('CharacterController: degenerate values and bad calls are refused, the world unchanged', async () => {
  const { world, floor, hero } = await room();
  const before = world.get(hero, CharacterController);
  assert.throws(() => world.update(hero, CharacterController, (c) => { c.height = 0.4; }), (e) => e.code === 'LB_ERR_DEGENERATE' && /CharacterController on entity .*'height'/.test(e.message));
  assert.throws(() => world.update(hero, CharacterController, (c) => { c.skinWidth = 0.5; }), (e) => /'skinWidth'/.test(e.message));
  assert.throws(() => world.update(hero, CharacterController, (c) => { c.radius = Number.NaN; }), (e) => /'radius'/.test(e.message));
  assert.throws(() => world.update(hero, CharacterController, (c) => { c.slopeLimit = 120; }), (e) => /'slopeLimit'/.test(e.message));
  assert.deepEqual(world.get(hero, CharacterController), before);
  assert.throws(() => world.controller.move(floor, [0, 0, 1]), (e) => e.code === 'LB_ERR_MISSING_COMPONENT');
  assert.throws(() => world.controller.move(hero, [0, Number.NaN, 0]), (e) => e.code === 'LB_ERR_NOT_FINITE');
  assert.throws(() => world.controller.move(hero, [0, 0]), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.deepEqual(world.get(hero, CharacterController).move, [0, 0, 0]);
  world.destroy();
});

test('controllers spawned at the same point separate at a bounded speed, opposite ways, and rest; dt 0 moves neither', async () => {
  for (const dt of [1 / 60, 0]) {
    const { world } = await room();
    const pair = [0, 1].map(() => {
      const e = world.spawn();
      world.insert(e, Transform, { position: [-2, 0.01, -2] });
      world.insert(e, CharacterController, {});
      world.insert(e, Collider, { shape: 'Capsule', radius: 0.3, height: 1.8, center: [0, 0.9, 0] });
      return e;
    });
    let fastest = 0;
    let prev = pair.map((e) => world.get(e, Transform).position);
    for (let i = 0; i < 600; i++) {
      world.step(dt);
      const now = pair.map((e) => world.get(e, Transform).position);
      for (let k = 0; k < 2; k++) fastest = Math.max(fastest, Math.hypot(now[k][0] - prev[k][0], now[k][2] - prev[k][2]));
      prev = now;
    }
    const [a, b] = prev;
    const apart = Math.hypot(b[0] - a[0], b[2] - a[2]);
    if (dt > 0) {
      // LB_CONTROLLER_SEPARATION_SPEED 2 m/s each; at rest skinWidth (0.01 m) apart, on the floor
      assert.ok(fastest <= (2 / 60) * 1.001, `fastest ${fastest} m per step`);
      assert.ok(Math.abs(apart - 0.61) < 1e-4, `${apart} m apart`);
      assert.ok(Math.abs(a[0] + b[0] + 4) < 1e-4 && Math.abs(a[2] + b[2] + 4) < 1e-4, 'opposite ways from the spawn point');
      for (const e of pair) assert.equal(world.get(e, CharacterController).grounded, true);
    } else {
      assert.equal(apart, 0);
      assert.equal(fastest, 0);
    }
    for (const p of prev) assert.ok(Math.abs(p[1] - 0.01) < 1e-5, `y ${p[1]}`);
    world.destroy();
  }
});

test('positions beyond the supported world extent (32 km) are refused naming entity, component and field', async () => {
  const { world, hero } = await room();
  const before = world.get(hero, Transform);
  assert.throws(() => world.update(hero, Transform, (t) => { t.position = [101000, 0, 0]; }), (e) => e.code === 'LB_ERR_OUT_OF_RANGE' && /Transform on entity .*'position'/.test(e.message));
  assert.deepEqual(world.get(hero, Transform), before);
  world.update(hero, Transform, (t) => { t.position = [32000, 0, -32000]; });
  world.destroy();
});
