// CharacterController from TypeScript: world.moveController goes through the Move phase
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
    world.moveController(hero, [0, 0, 1.4 / 60]);
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
  assert.throws(() => world.moveController(floor, [0, 0, 1]), (e) => e.code === 'LB_ERR_MISSING_COMPONENT');
  assert.throws(() => world.moveController(hero, [0, Number.NaN, 0]), (e) => e.code === 'LB_ERR_NOT_FINITE');
  assert.throws(() => world.moveController(hero, [0, 0]), (e) => e.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.deepEqual(world.get(hero, CharacterController).move, [0, 0, 0]);
  world.destroy();
});
