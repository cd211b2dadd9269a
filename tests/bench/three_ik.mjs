// Baseline for bench "ik.two_bone": the same arm reach solved with three.js
// CCDIKSolver, in Node, no rendering.
//
//   node tests/bench/three_ik.mjs [--bench ik.two_bone] [--runs N] [--iters N] [--warmup N]
//                                 [--ccd-iterations K] [--sweep]
//
// Prints one JSON line in limber_bench's format (see tests/bench/bench_main.c).
//
// Rig: a SkinnedMesh whose Skeleton holds the humanoid's right arm exactly as
// wasm/src/rig/humanoid.c builds it at 1.8 m (RightShoulder model position, then
// RightArm 0.11 m, RightForeArm 0.28 m, RightHand 0.25 m along -X) with the bench
// animation pose of tests/bench/bench_ik.c (upper arm lowered 40 deg about Z, elbow
// bent 30 deg about Y), plus a target bone. The target walks the same 1024-point
// Lissajous path.
//
// One operation mirrors bench_ik.c's: reset the 3 chain quaternions to the
// animation pose, move the target bone and update its matrixWorld, update the
// chain's matrixWorld (RightArm subtree: 3 bones), then solver.update(), whose CCD
// loop calls link.updateMatrixWorld(true) after every link rotation.
//
// CCD iteration cap: 16 by default, the smallest cap (of 12, 16, 20) at which every
// reach on the path ends within Limber's "reached" tolerance of 0.1 mm: mean final
// error ~4e-6 m, max ~2.4e-5 m (12 leaves a max of ~2e-4 m; from 20 on CCD's own
// 1e-5 rad early-out stops it at ~3e-6 m mean). `--sweep` prints error and time per
// cap. Limber's analytic solver ends at ~1.4e-7 m mean.
import {
  Bone,
  BufferGeometry,
  MeshBasicMaterial,
  Quaternion,
  Skeleton,
  SkinnedMesh,
  Vector3,
} from 'three';
import { CCDIKSolver } from 'three/examples/jsm/animation/CCDIKSolver.js';

const PATH_LEN = 1024;
const ARM_LOWER_DEG = 40;
const ELBOW_BEND_DEG = 30;

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : def;
}

// Same formula as lb_bench_reach_path (float rounding aside).
function reachPath(center) {
  const pts = [];
  for (let k = 0; k < PATH_LEN; ++k) {
    const a = (2 * Math.PI * k) / PATH_LEN;
    pts.push(
      new Vector3(
        Math.fround(center.x + 0.1 * Math.sin(a)),
        Math.fround(center.y + 0.08 * Math.sin(2 * a + 0.5)),
        Math.fround(center.z + 0.06 * Math.cos(3 * a)),
      ),
    );
  }
  return pts;
}

export function createArm(ccdIterations) {
  const shoulder = new Bone();
  shoulder.name = 'RightShoulder';
  // Hips 0.98 + Spine 0.10 + Spine1 0.12 + Spine2 0.12 + shoulder 0.12 = 1.44 m
  shoulder.position.set(-0.06, 1.44, 0);
  const arm = new Bone();
  arm.name = 'RightArm';
  arm.position.set(-0.11, 0, 0);
  const fore = new Bone();
  fore.name = 'RightForeArm';
  fore.position.set(-0.28, 0, 0);
  const hand = new Bone();
  hand.name = 'RightHand';
  hand.position.set(-0.25, 0, 0);
  const target = new Bone();
  target.name = 'Target';
  shoulder.add(arm);
  arm.add(fore);
  fore.add(hand);

  const mesh = new SkinnedMesh(new BufferGeometry(), new MeshBasicMaterial());
  mesh.add(shoulder);
  mesh.add(target);
  const bones = [shoulder, arm, fore, hand, target];
  mesh.updateMatrixWorld(true);
  mesh.bind(new Skeleton(bones));

  const animArm = new Quaternion().setFromAxisAngle(
    new Vector3(0, 0, 1),
    (ARM_LOWER_DEG * Math.PI) / 180,
  );
  const animFore = new Quaternion().setFromAxisAngle(
    new Vector3(0, 1, 0),
    (ELBOW_BEND_DEG * Math.PI) / 180,
  );
  const animHand = new Quaternion();
  arm.quaternion.copy(animArm);
  fore.quaternion.copy(animFore);
  mesh.updateMatrixWorld(true);

  // links go from the effector's parent toward the root
  const iks = [{ target: 4, effector: 3, links: [{ index: 2 }, { index: 1 }], iteration: ccdIterations }];
  const solver = new CCDIKSolver(mesh, iks);

  const armPos = new Vector3().setFromMatrixPosition(arm.matrixWorld);
  const path = reachPath(new Vector3(armPos.x - 0.08, armPos.y - 0.14, armPos.z + 0.3));
  const tip = new Vector3();
  let cursor = 0;

  // One batch of `iters` reaches; returns the summed final tip error (metres).
  function run(iters) {
    let errSum = 0;
    let errMax = 0;
    for (let i = 0; i < iters; ++i) {
      const p = path[cursor++ & (PATH_LEN - 1)];
      arm.quaternion.copy(animArm);
      fore.quaternion.copy(animFore);
      hand.quaternion.copy(animHand);
      target.position.copy(p);
      target.updateMatrixWorld();
      arm.updateMatrixWorld(true);
      solver.update();
      tip.setFromMatrixPosition(hand.matrixWorld);
      const e = tip.distanceTo(p);
      errSum += e;
      if (e > errMax) errMax = e;
    }
    return { errSum, errMax };
  }
  return { run };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

export function bench({ runs = 7, iters = 100000, warmup = 1, ccdIterations = 16 } = {}) {
  const { run } = createArm(ccdIterations);
  for (let w = 0; w < warmup; ++w) run(iters);
  const samples = [];
  let errSum = 0;
  let errMax = 0;
  for (let r = 0; r < runs; ++r) {
    const t0 = process.hrtime.bigint();
    const e = run(iters);
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / 1e3 / iters);
    errSum += e.errSum;
    errMax = Math.max(errMax, e.errMax);
  }
  return {
    bench: 'ik.two_bone',
    target: 'three',
    unit: 'us',
    min: Math.min(...samples),
    median: median(samples),
    runs,
    iters,
    samples,
    mean_error: errSum / (runs * iters),
    max_error: errMax,
    failures: 0,
    what: `three.js CCDIKSolver, ${ccdIterations} iterations max, + matrixWorld of the 3-bone chain and target`,
  };
}

// Benches this baseline implements (run.mjs asks for them with --bench NAME).
export const BENCHES = { 'ik.two_bone': bench };

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--sweep')) {
    for (const k of [1, 2, 4, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64]) {
      const r = bench({ runs: 3, iters: arg('--iters', 20000), warmup: 1, ccdIterations: k });
      console.log(
        `ccd iterations ${String(k).padStart(2)}: min ${r.min.toFixed(3)} us, mean error ${r.mean_error.toExponential(2)} m, max ${r.max_error.toExponential(2)} m`,
      );
    }
  } else {
    const names = process.argv.flatMap((a, i) => (a === '--bench' ? [process.argv[i + 1]] : []));
    let status = 0;
    for (const name of names.length ? names : Object.keys(BENCHES)) {
      if (!BENCHES[name]) {
        console.error(`three_ik: no three.js baseline for bench '${name}'`);
        status = 1;
        continue;
      }
      const r = BENCHES[name]({
        runs: arg('--runs', 7),
        iters: arg('--iters', 100000),
        warmup: arg('--warmup', 1),
        ccdIterations: arg('--ccd-iterations', 16),
      });
      console.log(JSON.stringify(r));
    }
    process.exitCode = status;
  }
}
