// limber/rapier: the Rapier backend answers the same random queries as the built-in one on the
// generated corridor and nav-arena levels (10,000 per level, within 1 mm; hit/miss agreement
// printed), and RapierCharacterControllers moves a CharacterController with Rapier's
// KinematicCharacterController from the requests of the core's Move phase.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import RAPIER from '@dimforge/rapier3d-compat';
import { CharacterController, Collider, Transform, createWorld } from '../../dist/web/bridge/index.js';
import { RapierCharacterControllers, rapierQueries } from '../../dist/web/rapier/index.js';

await RAPIER.init();

const QUERIES = 10_000;
const TOL = 1e-3;

/** The level's pieces as box colliders in both worlds. */
export async function twoWorlds(level) {
  const world = await createWorld();
  const rworld = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
  const rq = rapierQueries(RAPIER, rworld);
  const pieces = JSON.parse(readFileSync(`assets/levels/${level}.json`, 'utf8')).pieces;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of pieces) {
    const e = world.spawn();
    world.insert(e, Transform, { position: p.center, rotation: p.rotation });
    world.insert(e, Collider, { shape: 'Box', size: p.size });
    const desc = RAPIER.ColliderDesc.cuboid(p.size[0] / 2, p.size[1] / 2, p.size[2] / 2)
      .setTranslation(...p.center)
      .setRotation({ x: p.rotation[0], y: p.rotation[1], z: p.rotation[2], w: p.rotation[3] });
    rq.bind(rworld.createCollider(desc), e);
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p.center[k] - p.size[k]);
      hi[k] = Math.max(hi[k], p.center[k] + p.size[k]);
    }
  }
  rworld.step();
  world.step(1 / 60);
  return { world, rworld, rq, lo, hi };
}

/** xorshift32, seeded: the same queries every run. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

for (const level of ['corridor', 'nav-arena']) {
  test(`rapier backend: ${QUERIES} random queries on ${level} agree with the built-in backend within 1 mm`, async () => {
    const { world, rq, lo, hi } = await twoWorlds(level);
    const r = rng(level === 'corridor' ? 12345 : 67890);
    const inBox = () => [0, 1, 2].map((k) => lo[k] + (hi[k] - lo[k]) * r());
    const dir = () => {
      for (;;) {
        const v = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
        const l = Math.hypot(...v);
        if (l > 0.1 && l <= 1) return v.map((x) => x / l);
      }
    };
    const kinds = ['closestPoint', 'raycast', 'sphereCast', 'capsuleCast', 'overlapSphere', 'overlapBox'];
    const stats = Object.fromEntries(kinds.map((k) => [k, { n: 0, agree: 0, hits: 0, maxDist: 0, maxPoint: 0, minNormalDot: 1, inside: 0 }]));
    const bad = [];
    for (let i = 0; i < QUERIES; i++) {
      const kind = kinds[i % kinds.length];
      const s = stats[kind];
      s.n++;
      const o = inBox();
      const d = dir();
      const maxd = 0.5 + 4 * r();
      const rad = 0.05 + 0.45 * r();
      if (kind.startsWith('overlap')) {
        let a, b;
        if (kind === 'overlapSphere') {
          a = world.collide.overlapSphere(o, rad);
          b = rq.overlapSphere(o, rad);
        } else {
          const h = [rad, 0.05 + r(), 0.05 + r()];
          const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
          const ql = Math.hypot(...q);
          const qn = q.map((x) => x / ql);
          a = world.collide.overlapBox(o, qn, h);
          b = rq.overlapBox(o, qn, h);
        }
        if (a.length) s.hits++;
        if (JSON.stringify(a) === JSON.stringify(b)) s.agree++;
        else bad.push({ kind, o, a, b });
        continue;
      }
      let a, b, pointComparable = true, seg;
      if (kind === 'closestPoint') {
        a = world.collide.closestPoint(o, { maxDistance: maxd });
        b = rq.closestPoint(o, { maxDistance: maxd });
      } else if (kind === 'raycast') {
        a = world.collide.raycast(o, d, maxd);
        b = rq.raycast(o, d, maxd);
      } else if (kind === 'sphereCast') {
        a = world.collide.sphereCast(o, rad, d, maxd);
        b = rq.sphereCast(o, rad, d, maxd);
      } else {
        const ax = dir();
        const half = 0.1 + 0.6 * r();
        const pa = o.map((x, k) => x - ax[k] * half), pb = o.map((x, k) => x + ax[k] * half);
        seg = [pa, pb];
        a = world.collide.capsuleCast(pa, pb, rad, d, maxd);
        b = rq.capsuleCast(pa, pb, rad, d, maxd);
        pointComparable = false; // a capsule can touch a face along a segment: the point is any of it
      }
      if (a) s.hits++;
      if (!a !== !b) {
        bad.push({ kind, o, d, maxd, rad, a, b });
        continue;
      }
      if (!a) {
        s.agree++;
        continue;
      }
      const inside = a.distance <= 0;
      if (inside) s.inside++;
      const dd = Math.abs(a.distance - b.distance);
      const dp = pointComparable && !(inside && kind !== 'closestPoint') ? dist(a.point, b.point) : 0;
      s.maxDist = Math.max(s.maxDist, dd);
      s.maxPoint = Math.max(s.maxPoint, dp);
      if (!inside) s.minNormalDot = Math.min(s.minNormalDot, dot(a.normal, b.normal));
      if (dd <= TOL && dp <= TOL) s.agree++;
      else bad.push({ kind, o, seg, d, maxd, rad, a, b });
    }
    let agree = 0;
    for (const k of kinds) {
      const s = stats[k];
      agree += s.agree;
      console.log(`  ${level} ${k.padEnd(13)} ${s.agree}/${s.n} agree (${s.hits} hits, ${s.inside} inside-start), max |distance| diff ${(s.maxDist * 1000).toFixed(4)} mm, max point diff ${(s.maxPoint * 1000).toFixed(4)} mm, min normal dot ${s.minNormalDot.toFixed(5)}`);
    }
    console.log(`  ${level}: ${agree}/${QUERIES} queries agree (hit/miss, distance and point within 1 mm)`);
    for (const x of bad.slice(0, 5)) console.log('  disagreement:', JSON.stringify(x));
    assert.equal(bad.length, 0);
    world.destroy();
  });
}

test('RapierCharacterControllers: a script move and root-motion-style requests go through Rapier KinematicCharacterController', async () => {
  const { world, rworld, rq } = await twoWorlds('corridor');
  const hero = world.spawn();
  world.insert(hero, Transform, { position: [0, 0.01, 0] });
  world.insert(hero, CharacterController, {});
  const ctl = new RapierCharacterControllers(RAPIER, rworld, world, rq);
  ctl.add(hero);
  assert.equal(world.get(hero, CharacterController).backend, 'Host');
  let maxX = 0;
  for (let i = 0; i < 240; i++) {
    world.controller.move(hero, [-0.8 * 1.4 / 60, -0.01, 1.4 / 60]); // into the right wall
    world.step(1 / 60);
    assert.ok(world.get(hero, CharacterController).requested[2] > 0.02);
    ctl.update(1 / 60);
    rworld.step();
    maxX = Math.max(maxX, -world.get(hero, Transform).position[0]);
  }
  const p = world.get(hero, Transform).position;
  const res = ctl.result(hero);
  console.log(`  rapier controller: (${p.map((x) => x.toFixed(3)).join(', ')}), grounded ${res.grounded}, ${res.hits.length} contacts, max |x| ${maxX.toFixed(4)} (wall face at 0.6, radius 0.3)`);
  assert.ok(p[2] > 5, 'walked along the lane');
  assert.ok(maxX <= 0.3 + 1e-3, 'never inside the right wall');
  assert.ok(Math.abs(p[1]) < 0.05, 'stayed on the floor');
  ctl.remove(hero);
  assert.equal(world.get(hero, CharacterController).backend, 'Builtin');
  world.destroy();
});

test('rapier backend: vectors as THREE.Vector3 / {x, y, z} give the answers arrays give; a bad one is a LimberError naming it', async () => {
  const { Quaternion, Vector3 } = await import('three');
  const { LimberError } = await import('../../dist/web/bridge/index.js');
  const { world, rq, lo, hi } = await twoWorlds('corridor');
  const o = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
  const d = [0, -1, 0];
  assert.deepEqual(rq.raycast(new Vector3(...o), { x: 0, y: -1, z: 0 }, 20), rq.raycast(o, d, 20));
  assert.deepEqual(rq.sphereCast({ x: o[0], y: o[1], z: o[2] }, 0.2, new Vector3(...d), 20), rq.sphereCast(o, 0.2, d, 20));
  assert.deepEqual(rq.overlapBox(new Vector3(...o), new Quaternion(), new Vector3(50, 50, 50)), rq.overlapBox(o, [0, 0, 0, 1], [50, 50, 50]));
  assert.throws(() => rq.raycast({ x: 0 }, d, 20), (e) => e instanceof LimberError && e.field === 'origin.y');
  world.destroy();
});
