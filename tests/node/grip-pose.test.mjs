// GripPose through the bridge: poses shape the fingers on any naming convention, the
// trigger moves only the index, registerGripPose / gripPoseByJoint per world, blends without jumps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWorld,
  GripPose,
  gripPoseByJoint,
  gripPoseDef,
  gripPoseStatus,
  LimberError,
  registerGripPose,
  Rig,
  Transform,
} from '../../dist/web/bridge/index.js';

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const DIGIT_ROOTS = 'R_Digit0_1,R_Digit1_1,R_Digit2_1,R_Digit3_1,R_Digit4_1';

async function hero(naming = 'mixamo', pose = {}) {
  const world = await createWorld();
  const e = world.spawn();
  world.insert(e, Transform, {});
  world.insert(e, Rig, { asset: world.rig.addHumanoid({ naming }) });
  world.insert(e, GripPose, { blendSeconds: 0, ...pose });
  world.step(1 / 60);
  return { world, e };
}

/** Fingertip (end joint) positions of the right hand relative to the hand joint, in metres. */
function tips(world, e) {
  const status = world.grip.status(e).right;
  const names = world.rig.skeleton(world.get(e, Rig).asset).names;
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
  assert.equal(fist.world.grip.status(fist.e).right.driver, 'pose');
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
  assert.deepEqual(rigs[3].world.grip.status(rigs[3].e).right.missing, []);
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

test('registerGripPose adds a pose to that world only; gripPoseByJoint gives the identical hand', async () => {
  const other = await hero(); // exists before the registration
  const { world, e } = await hero();
  world.grip.registerPose('claw', { thumb: { opposition: 1, gap: 0.2 }, index: { curl: 0.9, base: 0.2 }, middle: { curl: 0.9, base: 0.2 }, ring: { curl: 0.9, base: 0.2 }, pinky: { curl: 0.9, base: 0.2 } });
  world.update(e, GripPose, (g) => { g.rightPose = 'claw'; });
  world.step(1 / 60);
  const claw = tips(world, e);
  const byJoint = world.grip.poseByJoint('claw');
  assert.deepEqual(Object.keys(byJoint.index).sort(), ['bend', 'fan']);
  world.grip.registerPose('clawJoints', byJoint);
  world.update(e, GripPose, (g) => { g.rightPose = 'clawJoints'; });
  world.step(1 / 60);
  const again = tips(world, e);
  for (const f of Object.keys(claw)) assert.deepEqual(again[f], claw[f], f);
  assert.deepEqual(world.grip.poseDef('claw').index, { curl: 0.9, base: 0.2 });
  // neither a world that existed before nor one created later has it
  const later = await hero();
  for (const w of [other, later]) {
    assert.throws(() => w.world.update(w.e, GripPose, (g) => { g.rightPose = 'claw'; }), (err) => err.code === 'LB_ERR_UNKNOWN_NAME' && /claw/.test(err.message));
    assert.throws(() => w.world.grip.poseDef('claw'), (err) => err.code === 'LB_ERR_UNKNOWN_NAME');
    assert.throws(() => w.world.grip.poseByJoint('claw'), (err) => err.code === 'LB_ERR_UNKNOWN_NAME');
  }
  // replacing a built-in in one world leaves the others' built-in alone
  world.grip.registerPose('fist', { index: { curl: 0.1 } });
  assert.deepEqual(world.grip.poseDef('fist').index, { curl: 0.1 });
  assert.notDeepEqual(later.world.grip.poseDef('fist').index, { curl: 0.1 });
  // bad poses name the key and register nothing
  assert.throws(() => world.grip.registerPose('bad', { index: { bend: [1, 'x', 3] } }), (err) => err.code === 'LB_ERR_PARSE' && /index\.bend\[1\]/.test(err.message));
  assert.throws(() => world.grip.registerPose('bad', { index: { curl: 7 } }), (err) => err.code === 'LB_ERR_OUT_OF_RANGE' && /index\.curl/.test(err.message));
  assert.throws(() => world.update(e, GripPose, (g) => { g.rightPose = 'bad'; }), (err) => err.code === 'LB_ERR_UNKNOWN_NAME');
});

test('grip pose functions take the world first: anything else is a LimberError that says so', async () => {
  const { world } = await hero();
  const claw = { index: { curl: 0.9 } };
  const cases = [
    [() => registerGripPose('claw', claw), /registerGripPose\(world, name, pose\): the first argument must be a World from createWorld\(\), got string "claw"/],
    [() => registerGripPose(undefined, 'claw', claw), /registerGripPose\(world, name, pose\).*got undefined/],
    [() => registerGripPose({}, 'claw', claw), /registerGripPose\(world, name, pose\).*got an object \(Object\)/],
    [() => gripPoseByJoint('pistol', world), /gripPoseByJoint\(world, pose\): the first argument must be a World.*got string "pistol"/],
    [() => gripPoseByJoint(null, 'pistol'), /gripPoseByJoint\(world, pose\).*got null/],
    [() => gripPoseDef('pistol', world), /gripPoseDef\(world, name\): the first argument must be a World/],
    [() => gripPoseStatus(7, 1), /gripPoseStatus\(world, entity\).*got number 7/],
    [() => world.grip.registerPose('claw'), /grip\.registerPose: field 'pose' must be a GripPoseDef object or its JSON text, got undefined/],
    [() => world.grip.registerPose(3, claw), /grip\.registerPose: field 'name' must be a string, got number 3/],
    [() => world.grip.poseByJoint(42), /grip\.poseByJoint: field 'pose' must be a pose name or a GripPoseDef object, got number 42/],
  ];
  for (const [fn, re] of cases) {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof LimberError, String(err));
      assert.equal(err.code, 'LB_ERR_INVALID_ARGUMENT');
      assert.match(err.message, re);
      return true;
    });
  }
  const gone = await createWorld();
  gone.destroy();
  assert.throws(() => gone.grip.registerPose('claw', claw), (err) => err instanceof LimberError && /grip\.registerPose: the world was destroyed/.test(err.message));
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

test('finger poses and grip poses share one namespace: a name of the other kind is refused, nothing registered', async () => {
  const { world, e } = await hero();
  const hand = world.grip.status(e).right.hand;
  const pose = world.grip.captureFingerPose(e, hand);
  const refused = (fn, re) => assert.throws(fn, (err) => err instanceof LimberError && err.code === 'LB_ERR_INVALID_ARGUMENT' && re.test(err.message));
  // a built-in grip pose name
  refused(() => world.grip.registerFingerPose('fist', pose), /registerFingerPose 'fist': a grip pose has that name/);
  // a registered grip pose, then a finger pose of the same name
  world.grip.registerPose('claw', { index: { curl: 0.9 } });
  refused(() => world.grip.registerFingerPose('claw', pose), /a grip pose has that name/);
  assert.equal(world.grip.poseDef('claw').index.curl, 0.9);
  // a finger pose, then a grip pose of the same name
  world.grip.registerFingerPose('mine', pose);
  refused(() => world.grip.registerPose('mine', { index: { curl: 0.5 } }), /registerGripPose 'mine': a finger pose \(registerFingerPose\) has that name/);
  assert.throws(() => world.grip.poseDef('mine'), LimberError);
});
