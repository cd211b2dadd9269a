// Collision queries through the bridge over the wasm build: the same answers as the native
// tests (tests/c/test_collide*.c), levels from scenes, and clear errors that leave the world
// unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Collider, createWorld, LimberError, Transform } from '../../dist/web/bridge/index.js';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const nearVec = (a, b, tol, what) => a.forEach((x, i) => near(x, b[i], tol, `${what}[${i}]`));

function spawn(world, collider, position = [0, 0, 0], rotation = [0, 0, 0, 1], scale = [1, 1, 1]) {
  const e = world.spawn();
  world.insert(e, Transform, { position, rotation, scale });
  world.insert(e, Collider, collider);
  return e;
}

const isError = (code, ...words) => (err) => {
  assert.ok(err instanceof LimberError, `a LimberError, got ${err}`);
  assert.equal(err.code, code, err.message);
  for (const w of words) assert.ok(err.message.includes(w), `'${w}' in: ${err.message}`);
  return true;
};

test('every shape answers as natively (exact geometry)', async () => {
  const world = await createWorld();
  const sphere = spawn(world, { shape: 'Sphere', radius: 1 });
  const box = spawn(world, { shape: 'Box', size: [2, 2, 2] }, [5, 0, 0]);
  const capsule = spawn(world, { shape: 'Capsule', radius: 0.5, height: 2 }, [10, 0, 0]);
  const cylinder = spawn(world, { shape: 'Cylinder', radius: 0.5, height: 2 }, [15, 0, 0]);
  const mesh = world.collide.addMesh([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], [0, 3, 1, 1, 3, 2]);
  assert.equal(world.collide.meshTriangleCount(mesh), 2);
  const quad = spawn(world, { shape: 'Mesh', mesh }, [20, 0, 0]);

  let h = world.collide.raycast([-5, 0, 0], [1, 0, 0], 10);
  assert.equal(h.entity, sphere);
  near(h.distance, 4, 2e-6, 'sphere ray');
  nearVec(h.normal, [-1, 0, 0], 2e-6, 'sphere normal');
  assert.equal(h.triangle, null);
  h = world.collide.raycast([5, 5, 0.3], [0, -1, 0], 10);
  assert.equal(h.entity, box);
  near(h.distance, 4, 2e-6, 'box ray');
  h = world.collide.sphereCast([10, 5, 0], 0.5, [0, -2, 0], 10);
  assert.equal(h.entity, capsule);
  near(h.distance, 3.5, 2e-6, 'capsule sphere cast');
  h = world.collide.sphereCast([12, 1.3, 0], 0.5, [1, 0, 0], 10);
  assert.equal(h.entity, cylinder);
  near(h.distance, 15 - 0.9 - 12, 2e-5, 'cylinder rim sphere cast');
  h = world.collide.capsuleCast([20.2, 2, 0.1], [20.2, 3, 0.1], 0.5, [0, -1, 0], 10);
  assert.equal(h.entity, quad);
  near(h.distance, 1.5, 2e-6, 'mesh capsule cast');
  assert.equal(h.triangle, 1);
  h = world.collide.raycast([0.2, 0, 0], [0, 1, 0], 10); // inside start
  assert.equal(h.distance, 0);
  nearVec(h.normal, [1, 0, 0], 2e-6, 'depenetration normal');
  h = world.collide.closestPoint([5, 0.5, 0.2]);
  assert.equal(h.entity, box);
  near(h.distance, -0.5, 2e-6, 'inside the box');
  nearVec(h.normal, [0, 1, 0], 2e-6, 'box face normal');
  assert.equal(world.collide.closestPoint([3, 0, 0], { maxDistance: 0.5 }), null);
  assert.equal(world.collide.raycast([-5, 3, 0], [1, 0, 0], 100), null);
  assert.deepEqual(world.collide.overlapSphere([2.5, 0, 0], 1.6), [sphere, box]);
  assert.deepEqual(world.collide.overlapCapsule([-2, 0.05, 0], [22, 0.05, 0], 0.1), [sphere, box, capsule, cylinder, quad]);
  assert.deepEqual(world.collide.overlapCapsule([-2, 0.05, 0], [22, 0.05, 0], 0.1, { exclude: box, layers: 1 }), [sphere, capsule, cylinder, quad]);
  assert.deepEqual(world.collide.overlapBox([5, 1.2, 0], [0, 0, 0, 1], [0.3, 0.3, 0.3]), [box]);
  world.update(box, Collider, (c) => { c.layer = 4; });
  assert.equal(world.collide.raycast([5, 5, 0.3], [0, -1, 0], 10, { layers: 3 }), null);
  assert.equal(world.collide.raycast([5, 5, 0.3], [0, -1, 0], 10, { layers: 4 }).entity, box);
  // a Transform write moves the collider at once, no step needed
  world.update(sphere, Transform, (t) => { t.position = [0, 10, 0]; });
  assert.notEqual(world.collide.raycast([-5, 0, 0], [1, 0, 0], 10)?.entity, sphere);
  world.destroy();
});

test('levels load from scenes (json boxes and glb meshes) and the corridor floor is at y = 0', async () => {
  for (const level of ['assets/levels/corridor.json', 'assets/levels/corridor.glb']) {
    const world = await createWorld();
    const doc = { name: 'level', level, entities: [] };
    assert.deepEqual(world.sceneFiles(doc), [level]);
    const scene = world.loadScene(doc, { files: { [level]: readFileSync(level) } });
    const h = world.collide.raycast([0.1, 3, 2], [0, -1, 0], 10);
    assert.equal(h.entity, scene.entity('floor'));
    near(h.point[1], 0, 1e-5, `${level} floor height`);
    scene.destroy();
    assert.equal(world.collide.raycast([0.1, 3, 2], [0, -1, 0], 10), null);
    world.destroy();
  }
});

test('bad arguments: clear errors naming the argument, the world unchanged', async () => {
  const world = await createWorld();
  const e = spawn(world, { shape: 'Sphere', radius: 1 });
  const before = world.get(e, Collider);
  assert.throws(() => world.update(e, Collider, (c) => { c.radius = 0; }), isError('LB_ERR_OUT_OF_RANGE', 'Collider', 'radius'));
  assert.throws(() => world.update(e, Collider, (c) => { c.shape = 'Capsule'; c.radius = 0.5; c.height = 0.9; }), isError('LB_ERR_OUT_OF_RANGE', 'Collider', 'height'));
  assert.throws(() => world.update(e, Collider, (c) => { c.radius = NaN; }), isError('LB_ERR_NOT_FINITE', 'radius'));
  assert.throws(() => world.update(e, Collider, (c) => { c.shape = 'Mesh'; c.mesh = 99; }), isError('LB_ERR_UNKNOWN_NAME', 'mesh'));
  assert.deepEqual(world.get(e, Collider), before);
  assert.throws(() => world.collide.raycast([0, 0, 0], [0, 0, 0], 1), isError('LB_ERR_INVALID_ARGUMENT', "'dir'"));
  assert.throws(() => world.collide.raycast([NaN, 0, 0], [1, 0, 0], 1), isError('LB_ERR_NOT_FINITE', "'origin'"));
  assert.throws(() => world.collide.raycast([0, 0], [1, 0, 0], 1), isError('LB_ERR_INVALID_ARGUMENT', "'origin'"));
  assert.throws(() => world.collide.raycast([0, 0, 0], [1, 0, 0], '1'), isError('LB_ERR_INVALID_ARGUMENT', "'maxDistance'"));
  assert.throws(() => world.collide.sphereCast([0, 0, 0], -1, [1, 0, 0], 1), isError('LB_ERR_OUT_OF_RANGE', "'radius'"));
  assert.throws(() => world.collide.capsuleCast([0, 0, 0], [0, 1, 0], 0.5, [1, 0, 0], -2), isError('LB_ERR_OUT_OF_RANGE', "'maxDistance'"));
  assert.throws(() => world.collide.overlapBox([0, 0, 0], [0, 0, 0, 3], [1, 1, 1]), isError('LB_ERR_OUT_OF_RANGE', "'rotation'"));
  assert.throws(() => world.collide.overlapSphere([0, 0, 0], 1, { layer: 1 }), isError('LB_ERR_INVALID_ARGUMENT', 'options.layer'));
  assert.throws(() => world.collide.overlapSphere([0, 0, 0], 1, { layers: -1 }), isError('LB_ERR_INVALID_ARGUMENT', 'options.layers'));
  assert.throws(() => world.collide.closestPoint([0, 0, 0], { maxDistance: Infinity }), isError('LB_ERR_NOT_FINITE', 'maxDistance'));
  assert.throws(() => world.collide.addMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 1, 3]), isError('LB_ERR_INVALID_ARGUMENT', 'out of range'));
  assert.throws(() => world.collide.addMesh([0, 0, 0, 1, 0, 0, 0, NaN, 1], [0, 1, 2]), isError('LB_ERR_NOT_FINITE', 'positions'));
  assert.throws(() => world.collide.addMesh([0, 0, 0, 1, 0], [0, 1, 2]), isError('LB_ERR_INVALID_ARGUMENT', 'positions'));
  assert.throws(() => world.collide.addMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], []), isError('LB_ERR_INVALID_ARGUMENT', 'indices'));
  assert.throws(() => world.collide.addMesh([0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 1, 1.5]), isError('LB_ERR_INVALID_ARGUMENT', 'indices[2]'));
  assert.equal(world.collide.meshTriangleCount(1), 0, 'no mesh was added');
  const h = world.collide.raycast([-5, 0, 0], [1, 0, 0], 10);
  assert.equal(h.entity, e);
  near(h.distance, 4, 2e-6, 'the world still answers as before');
  world.destroy();
});

// The world and queries of test_query_hash in tests/c/test_collide_world.c, made with the
// same generator (float operations repeated with Math.fround in the same order): the
// answers hash to the same 64 bits as natively.
const QUERY_HASH = 'aaefdf94086596d1';

function generator(seed) {
  let s = seed >>> 0;
  const u32 = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  const f = Math.fround;
  // lo + (hi - lo) * (float)(u >> 8) * 2^-24, in float, in C's order
  const rand = (lo, hi) => f(f(lo) + f(f(f(f(hi) - f(lo)) * f(u32() >>> 8)) * f(1 / 16777216)));
  return { u32, rand, f };
}

test('queries give the same bits as natively (hash of 4000 answers)', async () => {
  const world = await createWorld();
  const { u32, rand, f } = generator(0x5eed5);
  const n = 4, v = n + 1;
  const pos = [];
  for (let i = 0; i < v; i++) {
    for (let j = 0; j < v; j++) {
      pos.push(f(-1 + f(f(2 * i) / n)), rand(-0.1, 0.1), f(-1 + f(f(2 * j) / n)));
    }
  }
  const idx = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * v + j, b = a + 1, c = a + v, d = c + 1;
      idx.push(a, b, c, b, d, c);
    }
  }
  const mesh = world.collide.addMesh(pos, idx);
  const shapes = ['Cylinder', 'Capsule', 'Sphere', 'Box', 'Mesh'];
  for (let i = 0; i < 40; i++) {
    const shape = shapes[u32() % 5];
    const radius = rand(0.1, 1);
    const height = f(f(2 * radius) + rand(0, 2));
    const direction = ['X', 'Y', 'Z'][u32() % 3];
    const size = [rand(0.1, 3), rand(0.1, 3), rand(0.1, 3)];
    const layer = 1 << (u32() % 3);
    const rotation = [rand(-1, 1), rand(-1, 1), rand(-1, 1), rand(-1, 1)];
    const scale = shape === 'Mesh' || shape === 'Box' ? [rand(0.5, 3), rand(0.5, 3), rand(0.5, 3)] : [1, 1, 1];
    const position = [rand(-8, 8), rand(-8, 8), rand(-8, 8)];
    spawn(world, { shape, radius, height, direction, size, layer, mesh }, position, rotation, scale);
  }
  let h = 0xcbf29ce484222325n;
  const word = (x) => {
    for (let k = 0; k < 4; k++) {
      h ^= BigInt((x >>> (8 * k)) & 0xff);
      h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    }
  };
  const bits = new DataView(new ArrayBuffer(4));
  const float = (x) => {
    bits.setFloat32(0, x, true);
    word(bits.getUint32(0, true));
  };
  let hits = 0;
  for (let i = 0; i < 4000; i++) {
    const o = [rand(-10, 10), rand(-10, 10), rand(-10, 10)];
    const d = [rand(-1, 1), rand(-1, 1), rand(-1, 1)];
    const maxd = rand(0, 20);
    const rad = rand(0.05, 1);
    const b = [f(o[0] + rand(-1, 1)), f(o[1] + rand(-1, 1)), f(o[2] + rand(-1, 1))];
    const hit =
      i % 4 === 0 ? world.collide.closestPoint(o, { maxDistance: maxd })
      : i % 4 === 1 ? world.collide.raycast(o, d, maxd)
      : i % 4 === 2 ? world.collide.sphereCast(o, rad, d, maxd)
      : world.collide.capsuleCast(o, b, rad, d, maxd);
    if (hit) hits++;
    word(hit ? hit.entity : 0);
    float(hit ? hit.distance : 0);
    for (let k = 0; k < 3; k++) {
      float(hit ? hit.point[k] : 0);
      float(hit ? hit.normal[k] : 0);
    }
    word(hit && hit.triangle !== null ? hit.triangle : 0xffffffff);
  }
  assert.equal(h.toString(16).padStart(16, '0'), QUERY_HASH, `${hits} hits`);
  world.destroy();
});
