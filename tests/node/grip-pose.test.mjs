// GripPose through the bridge: poses shape the fingers on any naming convention, the
// trigger moves only the index, registerGripPose / gripPoseByJoint, blends without jumps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWorld, GripPose, gripPoseByJoint, gripPoseDef, gripPoseStatus, registerGripPose, Rig, Transform,
} from '../../dist/web/bridge/index.js';

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const DIGIT_ROOTS = 'R_Digit0_1,R_Digit1_1,R_Digit2_1,R_Digit3_1,R_Digit4_1';

async function hero(naming = 'mixamo', pose = {}) {
  const world = await createWorld();
  const e = world.spawn();
  world.insert(e, Transform, {});
  world.insert(e, Rig, { asset: world.addHumanoidRig({ naming }) });
  world.insert(e, GripPose, { blendSeconds: 0, ...pose });
  world.step(1 / 60);
  return { world, e };
}

/** Fingertip (end joint) positions of the right hand relative to the hand joint, in metres. */
function tips(world, e) {
  const status = gripPoseStatus(world, e).right;
  const names = world.skeleton(world.get(e, Rig).asset).names;
  const pose = world.modelPose(e);
  const hand = pose[names.indexOf(status.hand)].t;
  return Object.fromEntries(Object.entries(status.fingers).map(([f, joints]) => {
    const t = pose[names.indexOf(joints.at(-1))].t;
    return [f, [t[0] - hand[0], t[1] - hand[1], t[2] - hand[2]]];
  }));
}

test('fist: every fingertip moves toward the palm (-Y in the T-pose) and the thumb crosses over', async () => {
  const open = await hero('mixamo', { rightPose: 'open' });
  const fist = await hero('mixamo', { rightPose: 'fist' });
  const a = tips(open.world, open.e);
  const b = tips(fist.world, fist.e);
  const len = (v) => Math.hypot(v[0], v[1], v[2]);
  for (const f of ['index', 'middle', 'ring', 'pinky']) {
    assert.ok(b[f][1] < a[f][1] - 0.005, `${f} tip moved to the palm side by ${a[f][1] - b[f][1]} m`);
    assert.ok(len(b[f]) < len(a[f]) - 0.06, `${f} tip ${len(b[f])} m from the wrist (open ${len(a[f])} m)`);
  }
  assert.equal(gripPoseStatus(fist.world, fist.e).right.driver, 'pose');
});

test('the same pose gives the same hand on Mixamo, Unreal, Blender and digit-named (mapped) rigs', async () => {
  const rigs = [
    await hero('mixamo', { rightPose: 'handle' }),
    await hero('unreal', { rightPose: 'handle' }),
    await hero('blender', { rightPose: 'handle' }),
    await hero('digits', { rightPose: 'handle', rightFingerRoots: DIGIT_ROOTS }),
  ];
  const ref = tips(rigs[0].world, rigs[0].e);
  let worst = 0;
  for (const r of rigs.slice(1)) {
    const t = tips(r.world, r.e);
    for (const f of Object.keys(ref)) worst = Math.max(worst, dist(ref[f], t[f]));
  }
  assert.ok(worst < 1e-3, `max fingertip difference ${worst} m`);
  assert.deepEqual(gripPoseStatus(rigs[3].world, rigs[3].e).right.missing, []);
});

test('pistol: the trigger moves only the index finger', async () => {
  const { world, e } = await hero('mixamo', { rightPose: 'pistol' });
  const before = tips(world, e);
  world.update(e, GripPose, (g) => { g.rightTrigger = 1; });
  world.step(1 / 60);
  const after = tips(world, e);
  assert.ok(dist(before.index, after.index) > 0.02, `index moved ${dist(before.index, after.index)} m`);
  for (const f of ['middle', 'ring', 'pinky', 'thumb']) assert.ok(dist(before[f], after[f]) < 1e-6, `${f} moved ${dist(before[f], after[f])}`);
});

test('registerGripPose adds a pose to every world; gripPoseByJoint gives the identical hand', async () => {
  const { world, e } = await hero();
  registerGripPose('claw', { thumb: { opposition: 1, gap: 0.2 }, index: { curl: 0.9, base: 0.2 }, middle: { curl: 0.9, base: 0.2 }, ring: { curl: 0.9, base: 0.2 }, pinky: { curl: 0.9, base: 0.2 } });
  world.update(e, GripPose, (g) => { g.rightPose = 'claw'; });
  world.step(1 / 60);
  const claw = tips(world, e);
  const byJoint = gripPoseByJoint('claw');
  assert.deepEqual(Object.keys(byJoint.index).sort(), ['bend', 'fan']);
  registerGripPose('clawJoints', byJoint);
  world.update(e, GripPose, (g) => { g.rightPose = 'clawJoints'; });
  world.step(1 / 60);
  const again = tips(world, e);
  for (const f of Object.keys(claw)) assert.deepEqual(again[f], claw[f], f);
  // a world created later has it too
  const later = await hero('mixamo', { rightPose: 'claw' });
  assert.deepEqual(gripPoseDef('claw', later.world).index, { curl: 0.9, base: 0.2 });
  // bad poses name the key and register nothing
  assert.throws(() => registerGripPose('bad', { index: { bend: [1, 'x', 3] } }), (err) => err.code === 'LB_ERR_PARSE' && /index\.bend\[1\]/.test(err.message));
  assert.throws(() => registerGripPose('bad', { index: { curl: 7 } }), (err) => err.code === 'LB_ERR_OUT_OF_RANGE' && /index\.curl/.test(err.message));
  assert.throws(() => world.update(e, GripPose, (g) => { g.rightPose = 'bad'; }), (err) => err.code === 'LB_ERR_UNKNOWN_NAME');
});

test('switching poses eases over blendSeconds: no step moves a fingertip more than the ease allows', async () => {
  const { world, e } = await hero('mixamo', { rightPose: 'open' });
  world.update(e, GripPose, (g) => { g.rightPose = 'fist'; g.blendSeconds = 0.25; });
  const path = [tips(world, e)];
  for (let i = 0; i < 20; i++) {
    world.step(1 / 60);
    path.push(tips(world, e));
  }
  let total = 0;
  let worst = 0;
  for (let i = 1; i < path.length; i++) {
    const d = dist(path[i - 1].index, path[i].index);
    total += d;
    worst = Math.max(worst, d);
  }
  // smoothstep over 15 steps peaks at 1.5x the mean speed
  assert.ok(total > 0.05, `index tip travelled ${total} m`);
  assert.ok(worst <= (total * 1.5) / 15 * 1.1, `max step ${worst} m of ${total} m`);
  assert.ok(dist(path[1].index, path[0].index) < 1e-6, 'the first step starts where the hand was');
});
