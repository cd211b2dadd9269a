// The world API through the bridge over the wasm build: the same behaviour as the
// native tests, and typed errors that name the entity, component and field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorld, LimberError, Rig, Transform, TwoBoneIK } from '../../dist/web/bridge/index.js';

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const jointIndex = (world, hero, name) => world.rig.skeleton(world.get(hero, Rig).asset).names.indexOf(name);

async function armWorld() {
  const world = await createWorld();
  const hero = world.spawn();
  world.insert(hero, Transform, {});
  world.insert(hero, Rig, { asset: world.rig.addHumanoid() });
  const target = world.spawn();
  world.insert(target, Transform, { position: [-0.35, 1.2, 0.3] });
  const arm = world.spawn();
  world.insert(arm, TwoBoneIK, { rig: hero, tip: 'RightHand', target });
  return { world, hero, target, arm };
}

test('spawn/despawn: stale handles are errors, never crashes', async () => {
  const world = await createWorld();
  const e = world.spawn();
  assert.ok(world.alive(e));
  world.despawn(e);
  assert.equal(world.alive(e), false);
  assert.throws(() => world.despawn(e), (err) => err instanceof LimberError && err.code === 'LB_ERR_STALE_ENTITY');
  const again = world.spawn();
  assert.notEqual(again, e, 'a reused slot has a new generation');
  assert.throws(() => world.insert(e, Transform, {}), (err) => err.code === 'LB_ERR_STALE_ENTITY' && /entity 0v0/.test(err.message));
});

test('insert merges over schema defaults; get returns them', async () => {
  const { world, arm } = await armWorld();
  const ik = world.get(arm, TwoBoneIK);
  assert.equal(ik.weight, 1);
  assert.equal(ik.rotationWeight, 0);
  assert.equal(ik.soften, 1);
  assert.equal(ik.tip, 'RightHand');
  const t = world.spawn();
  world.insert(t, Transform, { position: [1, 2, 3] });
  assert.deepEqual(world.get(t, Transform).rotation, [0, 0, 0, 1]);
  assert.deepEqual(world.get(t, Transform).scale, [1, 1, 1]);
  const schemaNames = world.components.find((c) => c.name === 'TwoBoneIK').fields.map((f) => f.name);
  assert.deepEqual(Object.keys(ik).sort(), [...schemaNames].sort());
});

test('update throws on a missing component and names it', async () => {
  const world = await createWorld();
  const e = world.spawn();
  assert.throws(
    () => world.update(e, TwoBoneIK, (ik) => { ik.weight = 0.5; }),
    (err) => err instanceof LimberError && err.code === 'LB_ERR_MISSING_COMPONENT' && err.component === 'TwoBoneIK' && /TwoBoneIK/.test(err.message),
  );
});

test('bad input: typed errors name the field, and the world is unchanged', async () => {
  const { world, hero, arm } = await armWorld();
  world.step(1 / 60);
  const before = world.hash();
  const cases = [
    [() => world.update(arm, TwoBoneIK, (ik) => { ik.weight = Number.NaN; }), 'LB_ERR_NOT_FINITE', 'weight'],
    [() => world.update(arm, TwoBoneIK, (ik) => { ik.weight = 1.5; }), 'LB_ERR_OUT_OF_RANGE', 'weight'],
    [() => world.update(arm, TwoBoneIK, (ik) => { ik.tip = 'RightHnd'; }), 'LB_ERR_JOINT_NOT_FOUND', 'tip'],
    [() => world.update(arm, TwoBoneIK, (ik) => { ik.weight = 'heavy'; }), 'LB_ERR_INVALID_ARGUMENT', 'weight'],
    [() => world.insert(arm, TwoBoneIK, { wieght: 1 }), 'LB_ERR_UNKNOWN_NAME', 'wieght'],
    [() => world.update(hero, Transform, (t) => { t.rotation = [0, 0, 0, 0]; }), 'LB_ERR_OUT_OF_RANGE', 'rotation'],
    [() => world.update(hero, Transform, (t) => { t.position = [0, Infinity, 0]; }), 'LB_ERR_NOT_FINITE', 'position'],
    [() => world.update(hero, Transform, (t) => { t.parent = hero; }), 'LB_ERR_CYCLE', 'parent'],
    [() => world.insert(hero, Rig, { asset: 99 }), 'LB_ERR_UNKNOWN_NAME', 'asset'],
  ];
  for (const [fn, code, field] of cases) {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof LimberError, String(err));
      assert.equal(err.code, code, err.message);
      assert.equal(err.field, field, err.message);
      assert.match(err.message, new RegExp(`'${field}'`));
      return true;
    });
  }
  assert.equal(world.get(arm, TwoBoneIK).weight, 1);
  assert.equal(world.get(arm, TwoBoneIK).tip, 'RightHand');
  world.step(1 / 60);
  assert.equal(world.hash(), before, 'failed writes changed nothing');
  assert.throws(() => world.step(Number.NaN), (err) => err.code === 'LB_ERR_OUT_OF_RANGE');
  assert.throws(() => world.step(-1), (err) => err.code === 'LB_ERR_OUT_OF_RANGE');
});

test('TwoBoneIK reaches a reachable target within 0.1 mm', async () => {
  const { world, hero, target, arm } = await armWorld();
  world.step(1 / 60);
  const hand = world.modelPose(hero)[jointIndex(world, hero, 'RightHand')].t;
  const goal = world.worldTransform(target).t;
  const err = dist(hand, goal);
  assert.ok(err < 1e-4, `reach error ${err} m`);
  assert.equal(world.get(arm, TwoBoneIK).reached, true);
});

test('unreachable target: straight arm aimed at it, distance reported', async () => {
  const { world, hero, target, arm } = await armWorld();
  world.update(target, Transform, (t) => { t.position = [-1.5, 1.8, 0.6]; });
  world.step(1 / 60);
  const pose = world.modelPose(hero);
  const [sh, el, wr] = ['RightArm', 'RightForeArm', 'RightHand'].map((n) => pose[jointIndex(world, hero, n)].t);
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const angle = (a, b) => {
    const d = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b));
    return (Math.acos(Math.min(1, Math.max(-1, d))) * 180) / Math.PI;
  };
  assert.ok(angle(sub(el, sh), sub(wr, el)) < 0.01, 'arm straight');
  assert.ok(angle(sub(wr, sh), sub([-1.5, 1.8, 0.6], sh)) < 0.01, 'aimed at the target');
  const ik = world.get(arm, TwoBoneIK);
  assert.equal(ik.reached, false);
  const expected = dist(sh, [-1.5, 1.8, 0.6]) - (dist(sh, el) + dist(el, wr));
  assert.ok(Math.abs(ik.distance - expected) < 1e-5, `distance ${ik.distance} vs ${expected}`);
});

test('weight 0 leaves the pose bit for bit', async () => {
  const { world, hero, arm } = await armWorld();
  world.update(arm, TwoBoneIK, (ik) => { ik.weight = 0; });
  world.step(1 / 60);
  const withIk = world.modelMatrices(hero);
  world.remove(arm, TwoBoneIK);
  world.step(1 / 60);
  const without = world.modelMatrices(hero);
  assert.deepEqual(Buffer.from(withIk.buffer), Buffer.from(without.buffer));
});

test('external animation pose: validated, then used', async () => {
  const { world, hero } = await armWorld();
  const pose = world.localPose(hero);
  assert.throws(() => world.setAnimationPose(hero, pose.slice(1)), (err) => err.code === 'LB_ERR_INVALID_ARGUMENT');
  const bad = pose.map((p) => ({ ...p, t: [...p.t] }));
  bad[3].t[1] = Number.NaN;
  assert.throws(() => world.setAnimationPose(hero, bad), (err) => err.code === 'LB_ERR_NOT_FINITE' && /Spine|Neck|Head|Hips|Arm|Leg/.test(err.message));
  const headIndex = jointIndex(world, hero, 'Head');
  world.step(1 / 60);
  const restHead = world.modelPose(hero)[headIndex].t[1];
  const moved = pose.map((p) => ({ ...p, t: [...p.t] }));
  moved[0].t[1] += 0.1; // raise the hips by 10 cm
  world.setAnimationPose(hero, moved);
  world.step(1 / 60);
  const head = world.modelPose(hero)[headIndex].t[1];
  assert.ok(Math.abs(head - restHead - 0.1) < 1e-6, `head rose ${head - restHead} m`);
});

test('scenes: malformed documents give clear errors and leave no entities', async () => {
  const world = await createWorld();
  assert.throws(() => world.loadScene('{"entities": ['), (err) => err.code === 'LB_ERR_PARSE');
  assert.throws(
    () => world.loadScene({ entities: [{ name: 'a', components: { Transfrom: {} } }] }),
    (err) => err.code === 'LB_ERR_UNKNOWN_NAME' && /Transfrom/.test(err.message),
  );
  assert.throws(
    () => world.loadScene({ entities: [{ name: 'a', components: { TwoBoneIK: { target: 'nobody' } } }] }),
    (err) => /nobody/.test(err.message),
  );
  const e = world.spawn();
  assert.equal(e & 0xfffff, 1, 'failed loads despawned what they made, so slot 0 is free again');
});

test('snapshot/restore: the world comes back bit for bit (hash, step count, entities, registrations)', async () => {
  const { world, target, arm } = await armWorld();
  world.step(1 / 60);
  const hash = world.hash();
  const steps = world.stepCount;
  const snap = world.snapshot();
  world.update(target, Transform, (t) => { t.position = [-0.2, 1.4, 0.35]; });
  const extra = world.spawn();
  world.insert(extra, Transform, {});
  world.despawn(arm);
  for (let i = 0; i < 5; i++) world.step(1 / 60);
  assert.notEqual(world.hash(), hash);
  world.restore(snap);
  assert.equal(world.hash(), hash);
  assert.equal(world.stepCount, steps);
  assert.ok(world.alive(arm), 'an entity despawned after the snapshot is back');
  assert.equal(world.alive(extra), false, 'an entity spawned after it is gone');
  assert.deepEqual(world.get(target, Transform).position.map((x) => Math.round(x * 1e6) / 1e6), [-0.35, 1.2, 0.3]);
  // the restored world steps like the original
  world.step(1 / 60);
  const twin = await armWorld();
  twin.world.step(1 / 60);
  twin.world.step(1 / 60);
  assert.equal(world.hash(), twin.world.hash());
  // only this world's snapshots
  assert.throws(() => world.restore({}), (err) => err instanceof LimberError && err.code === 'LB_ERR_INVALID_ARGUMENT');
  assert.throws(() => world.restore(null), (err) => err instanceof LimberError);
  world.destroy();
  twin.world.destroy();
});

test('pose reads refill a caller array in place; matrices copy into a caller buffer', async () => {
  const world = await createWorld();
  const rig = world.rig.addHumanoid({ height: 1.8 });
  const e = world.spawn();
  world.insert(e, Transform, { position: [1, 0, 2] });
  world.insert(e, Rig, { asset: rig });
  world.step(1 / 60);
  const fresh = world.localPose(e);
  const out = world.localPose(e);
  const t0 = out[3].t;
  assert.equal(world.localPose(e, out), out, 'the same array comes back');
  assert.equal(out[3].t, t0, 'joint arrays are refilled, not replaced');
  assert.deepEqual(out, fresh);
  const model = world.modelPose(e, world.modelPose(e));
  assert.deepEqual(model, world.modelPose(e));
  const n = fresh.length;
  const buf = new Float32Array(16 * n + 4).fill(7);
  assert.equal(world.modelMatrices(e, buf), buf);
  assert.deepEqual(buf.subarray(0, 16 * n), world.modelMatrices(e));
  assert.equal(buf[16 * n], 7, 'nothing written past the joints');
  for (const bad of [[], new Array(n + 1).fill(null), 'pose']) {
    assert.throws(() => world.localPose(e, bad), (err) => err instanceof LimberError && /localPose: field 'out'/.test(err.message));
  }
  assert.throws(() => world.modelMatrices(e, new Float32Array(16 * n - 1)), (err) => err instanceof LimberError && /out/.test(err.message));
  assert.throws(() => world.modelMatrices(e, [1, 2, 3]), (err) => err instanceof LimberError && /Float32Array/.test(err.message));
  world.destroy();
});
