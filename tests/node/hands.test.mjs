// Hand and finger finding through the bridge (the core's lb_world_find_hand).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorld, LimberError, Rig, Transform } from '../../dist/web/bridge/index.js';

test('findHand: both hands and five fingers of the humanoid, root to tip', async () => {
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: world.rig.addHumanoid() });
  for (const side of ['Right', 'Left']) {
    const h = world.grip.findHand(hero, side);
    assert.equal(h.hand, `${side}Hand`);
    assert.deepEqual(h.missing, []);
    for (const [finger, joints] of Object.entries(h.fingers)) {
      const cap = finger[0].toUpperCase() + finger.slice(1);
      assert.deepEqual(joints, [1, 2, 3, 4].map((k) => `${side}Hand${cap}${k}`));
    }
    assert.match(h.report, new RegExp(`${side.toLowerCase()} hand '${side}Hand'`));
  }
});

test('findHand: errors name the entity and the problem', async () => {
  const world = await createWorld();
  const prop = world.spawn();
  world.insert(prop, Transform, {});
  assert.throws(() => world.grip.findHand(prop, 'Right'), (e) => e instanceof LimberError && e.code === 'LB_ERR_MISSING_COMPONENT');
  const hero = world.spawn();
  world.insert(hero, Rig, { asset: world.rig.addHumanoid() });
  assert.throws(() => world.grip.findHand(hero, 'Up'), (e) => e.code === 'LB_ERR_UNKNOWN_NAME' && e.field === 'side');
  assert.throws(() => world.grip.findHand(hero, 'Right', 'NoSuchJoint'), (e) => e.code === 'LB_ERR_JOINT_NOT_FOUND' && /NoSuchJoint|not found|no hand/i.test(e.message));
});

test('digit-numbered fingers are found without a mapping; the status reports palmKnown, and a mapping mistake gives the whole report', async () => {
  const { GripPose, gripPoseStatus } = await import('../../dist/web/bridge/index.js');
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: world.rig.addHumanoid({ naming: 'digits' }) });
  const h = world.grip.findHand(hero, 'Right');
  assert.deepEqual(h.missing, []);
  assert.deepEqual(h.tipEstimated, []);
  assert.deepEqual(h.fingers.thumb.slice(0, 1), ['R_Digit0_1']);
  world.insert(hero, GripPose, { rightPose: 'fist' });
  world.step(1 / 60);
  const st = world.grip.status(hero).right;
  assert.equal(st.palmKnown, true);
  assert.deepEqual(st.missing, []);
  // Five wrong roots: the message names every one of them (it is longer than 256 bytes).
  const roots = ['NoThumbJointHere', 'NoIndexJointHere', 'NoMiddleJointHere', 'NoRingJointHere', 'NoPinkyJointHere'].map((n) => `${n}_${'x'.repeat(40)}`);
  assert.throws(() => world.update(hero, GripPose, (g) => { g.rightFingerRoots = roots.join(','); }), (e) => {
    assert.ok(e instanceof LimberError && e.code === 'LB_ERR_JOINT_NOT_FOUND', e.message);
    for (const r of roots) assert.ok(e.message.includes(r), `message lacks ${r}: ${e.message.length} chars`);
    assert.ok(e.message.length > 256);
    return true;
  });
});
