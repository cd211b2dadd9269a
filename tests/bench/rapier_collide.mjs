// Baselines for the collide.corridor.* and controller.move benches (tests/bench/bench_controller.c):
// the same level (assets/levels/corridor.json as Rapier cuboids) and the same query table
// (xorshift32 from seed 2024), answered by
//   --target rapier         Rapier's own queries (@dimforge/rapier3d-compat: projectPoint,
//                           castRayAndGetNormal, castShape with a Ball / Capsule) and its
//                           KinematicCharacterController (computeColliderMovement + world.step);
//   --target limber-rapier  limber/rapier's query table (rapierQueries: Rapier's answers
//                           refined to the built-in backend's contacts) and
//                           RapierCharacterControllers over a Limber world.
//
//   node tests/bench/rapier_collide.mjs --target rapier|limber-rapier [--bench NAME]... [--runs N] [--iters N] [--warmup N]
//
// Prints one JSON line per bench in limber_bench's format (tests/bench/bench_main.c).
import { readFileSync } from 'node:fs';
import RAPIER from '@dimforge/rapier3d-compat';

const COUNT = 1024;
const DT = 1 / 60;

function arg(name, def) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : def;
}

function table() {
  let s = 2024;
  const rand = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return (s >>> 8) / 16777216;
  };
  const dir = () => {
    for (;;) {
      const v = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
      const l = Math.hypot(...v);
      if (l > 0.1 && l <= 1) return v.map((x) => x / l);
    }
  };
  const lo = [-2, -0.1, -2], hi = [10, 2.5, 14];
  const q = [];
  for (let i = 0; i < COUNT; i++) {
    const p = lo.map((l, k) => l + (hi[k] - l) * rand());
    const d = dir();
    const axis = dir();
    q.push({ p, d, axis, maxd: 0.5 + 4 * rand(), radius: 0.05 + 0.45 * rand(), half: 0.1 + 0.6 * rand() });
  }
  return q;
}

const pieces = () => JSON.parse(readFileSync('assets/levels/corridor.json', 'utf8')).pieces;
const v3 = (a) => ({ x: a[0], y: a[1], z: a[2] });

function yTo(d) {
  const [x, y, z] = d;
  if (y < -0.999999) return { x: 1, y: 0, z: 0, w: 0 };
  const q = [z, 0, -x, 1 + y];
  const l = Math.hypot(...q);
  return { x: q[0] / l, y: q[1] / l, z: q[2] / l, w: q[3] / l };
}

async function setup(target) {
  await RAPIER.init();
  const rworld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  if (target === 'rapier') {
    for (const p of pieces()) {
      rworld.createCollider(RAPIER.ColliderDesc.cuboid(p.size[0] / 2, p.size[1] / 2, p.size[2] / 2).setTranslation(...p.center).setRotation({ x: p.rotation[0], y: p.rotation[1], z: p.rotation[2], w: p.rotation[3] }));
    }
    rworld.step();
    return { rworld };
  }
  const { createWorld, Transform, Collider, CharacterController } = await import('../../dist/web/bridge/index.js');
  const { rapierQueries, RapierCharacterControllers } = await import('../../dist/web/rapier/index.js');
  const world = await createWorld();
  const rq = rapierQueries(RAPIER, rworld);
  for (const p of pieces()) {
    const e = world.spawn();
    world.insert(e, Transform, { position: p.center, rotation: p.rotation });
    world.insert(e, Collider, { shape: 'Box', size: p.size });
    rq.bind(rworld.createCollider(RAPIER.ColliderDesc.cuboid(p.size[0] / 2, p.size[1] / 2, p.size[2] / 2).setTranslation(...p.center).setRotation({ x: p.rotation[0], y: p.rotation[1], z: p.rotation[2], w: p.rotation[3] })), e);
  }
  rworld.step();
  return { rworld, world, rq, Transform, CharacterController, RapierCharacterControllers };
}

function queryBench(kind, ctx, target) {
  const q = table();
  const { rworld, rq } = ctx;
  let next = 0;
  const ball = new Map(), caps = new Map();
  return (iters, st) => {
    for (let i = 0; i < iters; i++) {
      const x = q[next++ & (COUNT - 1)];
      let dist = 0;
      if (target === 'limber-rapier') {
        let h;
        if (kind === 'closest_point') h = rq.closestPoint(x.p, { maxDistance: x.maxd });
        else if (kind === 'raycast') h = rq.raycast(x.p, x.d, x.maxd);
        else if (kind === 'sphere_cast') h = rq.sphereCast(x.p, x.radius, x.d, x.maxd);
        else {
          const a = x.p.map((c, k) => c - x.axis[k] * x.half), b = x.p.map((c, k) => c + x.axis[k] * x.half);
          h = rq.capsuleCast(a, b, x.radius, x.d, x.maxd);
        }
        dist = h ? Math.abs(h.distance) : 0;
      } else if (kind === 'closest_point') {
        const pr = rworld.projectPoint(v3(x.p), false);
        if (pr) {
          const d = Math.hypot(x.p[0] - pr.point.x, x.p[1] - pr.point.y, x.p[2] - pr.point.z);
          dist = d <= x.maxd || pr.isInside ? d : 0;
        }
      } else if (kind === 'raycast') {
        const r = rworld.castRayAndGetNormal(new RAPIER.Ray(v3(x.p), v3(x.d)), x.maxd, true);
        dist = r ? r.timeOfImpact : 0;
      } else if (kind === 'sphere_cast') {
        let shape = ball.get(x.radius);
        if (!shape) ball.set(x.radius, (shape = new RAPIER.Ball(x.radius)));
        const h = rworld.castShape(v3(x.p), { x: 0, y: 0, z: 0, w: 1 }, v3(x.d), shape, 0, x.maxd, true);
        dist = h ? h.time_of_impact : 0;
      } else {
        let shape = caps.get(x);
        if (!shape) caps.set(x, (shape = new RAPIER.Capsule(x.half, x.radius)));
        const h = rworld.castShape(v3(x.p), yTo(x.axis), v3(x.d), shape, 0, x.maxd, true);
        dist = h ? h.time_of_impact : 0;
      }
      st.error_sum += dist;
      st.ops++;
    }
  };
}

function moveBench(ctx, target) {
  const { rworld } = ctx;
  let steps = 0;
  const request = () => {
    const a = (steps % 360) * 0.017453292;
    const v = 1.4 * DT;
    return [Math.sin(a) * 0.8 * v, 0, (0.6 + Math.cos(a) * 0.4) * v];
  };
  if (target === 'rapier') {
    const collider = rworld.createCollider(RAPIER.ColliderDesc.capsule(0.6, 0.3).setTranslation(0, 0.91, 0));
    const kcc = rworld.createCharacterController(0.01);
    kcc.enableAutostep(0.3, 0.3, false);
    kcc.setMaxSlopeClimbAngle(Math.PI / 4);
    kcc.enableSnapToGround(0.3);
    rworld.step();
    return (iters, st) => {
      for (let i = 0; i < iters; i++) {
        if (steps % 600 === 0) collider.setTranslation({ x: 0, y: 0.91, z: 0 });
        const d = request();
        steps++;
        kcc.computeColliderMovement(collider, v3(d), undefined, undefined, (c) => c.handle !== collider.handle);
        const m = kcc.computedMovement();
        const p = collider.translation();
        collider.setTranslation({ x: p.x + m.x, y: p.y + m.y, z: p.z + m.z });
        rworld.step();
        st.error_sum += p.y + m.y - 0.9;
        st.ops++;
      }
    };
  }
  const { world, rq, Transform, CharacterController, RapierCharacterControllers } = ctx;
  const hero = world.spawn();
  world.insert(hero, Transform, { position: [0, 0.01, 0] });
  world.insert(hero, CharacterController, {});
  const ctl = new RapierCharacterControllers(RAPIER, rworld, world, rq);
  ctl.add(hero);
  return (iters, st) => {
    for (let i = 0; i < iters; i++) {
      const d = request();
      steps++;
      world.controller.move(hero, d);
      world.step(DT);
      ctl.update(DT);
      rworld.step();
      st.error_sum += world.get(hero, Transform).position[1];
      st.ops++;
    }
  };
}

const WHAT = {
  'collide.corridor.closest_point': 'closest point to a random point, corridor level',
  'collide.corridor.raycast': 'raycast 0.5-4.5 m, corridor level',
  'collide.corridor.sphere_cast': 'sphere cast r 0.05-0.5 m over 0.5-4.5 m, corridor level',
  'collide.corridor.capsule_cast': 'capsule cast (core 0.2-1.4 m, r 0.05-0.5 m) over 0.5-4.5 m, corridor level',
  'controller.move': 'one step moving one character controller, corridor level',
};
const ITERS = { 'collide.corridor.capsule_cast': 50000, 'controller.move': 20000 };

const target = arg('--target', 'rapier');
const names = process.argv.flatMap((a, i) => (a === '--bench' ? [process.argv[i + 1]] : []));
const runs = Number(arg('--runs', 7));
const warmup = Number(arg('--warmup', 1));
for (const name of names.length ? names : Object.keys(WHAT)) {
  if (!WHAT[name]) {
    console.error(`rapier_collide: no Rapier baseline for bench '${name}'`);
    process.exitCode = 1;
    continue;
  }
  const ctx = await setup(target);
  const run = name === 'controller.move' ? moveBench(ctx, target) : queryBench(name.split('.').pop(), ctx, target);
  const iters = Number(arg('--iters', 0)) || (ITERS[name] ?? 100000) / (target === 'limber-rapier' ? 10 : 1);
  const st = { error_sum: 0, error_max: 0, ops: 0, failures: 0 };
  for (let w = 0; w < warmup; w++) run(iters, { error_sum: 0, error_max: 0, ops: 0 });
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    run(iters, st);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3 / iters);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  console.log(JSON.stringify({ bench: name, target, unit: 'us', min: sorted[0], median, runs, iters, samples, mean_error: st.ops ? st.error_sum / st.ops : 0, max_error: st.error_max, failures: 0, what: WHAT[name] }));
  ctx.world?.destroy();
}
