// Level scenes for the later features: a corridor whose walls a walking character
// can touch (environment interaction), a vault course (vault) and a nav arena
// (navigation + root motion). Each level is written twice:
//   assets/levels/<name>.glb  — one node per piece (a box mesh of the piece's size,
//     flat normals, the node's translation/rotation = the piece's centre/rotation),
//     one material per kind, so three.js shows it;
//   assets/levels/<name>.json — the same pieces as data the core can load without
//     reading meshes: {name, description, units, pieces: [{name, kind, shape: "box",
//     center, size, rotation}], spawn: {position, facing}} plus what the level is for
//     (corridor: touchWalls, vault course: obstacles with vaultable + why, nav
//     arena: destinations, agentRadius, openings, ramp).
// Frame: Y up, metres, the floor's top at y = 0, lanes along +Z; a character facing
// +Z has its left hand toward +X (as the mannequin rigs). Rotations are [x, y, z, w].
import { GltfBuilder, TARGET } from './gltf-writer.mjs';
import { add, cross, dot, length, normalize, qFromColumns, scale, sub } from './math.mjs';
import { VAULT_BOX } from './motion.mjs';

const num = (x) => Number(x.toFixed(7)) + 0; // + 0 turns -0 into 0
const vec = (v) => v.map(num);
/** 0.1 mm: numbers taken from the float32 skeleton, without float32 noise. */
const r4 = (x) => Number(x.toFixed(4)) + 0;
const m2 = (x) => x.toFixed(2);

export const KINDS = ['floor', 'wall', 'obstacle', 'ramp'];
const COLORS = { floor: [0.5, 0.52, 0.55, 1], wall: [0.78, 0.74, 0.66, 1], obstacle: [0.86, 0.52, 0.22, 1], ramp: [0.36, 0.56, 0.8, 1] };

/** An axis-aligned box piece from its min and max corners. */
function box(name, kind, min, max) {
  return { name, kind, shape: 'box', center: vec(scale(add(min, max), 0.5)), size: vec(sub(max, min)), rotation: [0, 0, 0, 1] };
}

/**
 * A slab whose top face runs from the edge midpoint `low` up to `high`, `width`
 * across. Its local +Z points from `high` to `low` (downhill), +Y out of the top
 * face, so the rotation is a pure tilt about X for a slab rising along −Z.
 */
function slab(name, kind, low, high, width, thickness) {
  const down = normalize(sub(low, high));
  const across = normalize(cross([0, 1, 0], down));
  const up = cross(down, across);
  const X = cross(up, down);
  const rotation = qFromColumns(X, up, down);
  const topMid = scale(add(low, high), 0.5);
  return { name, kind, shape: 'box', center: vec(sub(topMid, scale(up, thickness / 2))), size: vec([width, thickness, length(sub(high, low))]), rotation: vec(rotation) };
}

/**
 * The character the hints are measured for: the core's 1.8 m humanoid (the
 * Mixamo-convention canonical skeleton from skeleton.mjs). Shoulder = the upper
 * arm joint (LeftArm), arm = upper arm + forearm to the wrist.
 */
export function referenceCharacter(canon) {
  const at = (n) => canon.pos[canon.names.indexOf(n)];
  const [sh, el, wr] = ['LeftArm', 'LeftForeArm', 'LeftHand'].map(at);
  return { height: canon.height, shoulderHeight: r4(sh[1]), shoulderOffset: r4(Math.abs(sh[0])), armLength: r4(length(sub(el, sh)) + length(sub(wr, el))) };
}

// ---- corridor -----------------------------------------------------------------

/** The wrist stops this far from the wall (the seed's 5 cm offset for the hand's thickness). */
const HAND_OFFSET = 0.05;
/** Share of the arm's length used: a slightly bent elbow keeps two-bone IK off its straight-arm singularity. */
const REACH_FRACTION = 0.95;
const WALL_T = 0.2;
const WALL_H = 2.5;

/**
 * Lane segments [start, end] (axis-aligned) with their left direction (up × forward).
 * Arc length `s` counts from the first point.
 */
function laneSegments(points) {
  const segs = [];
  let s = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i], b = points[i + 1];
    const len = length(sub(b, a));
    const dir = scale(sub(b, a), 1 / len);
    segs.push({ a, dir, left: cross([0, 1, 0], dir), len, s0: s });
    s += len;
  }
  return { segs, length: s };
}

/** Merges [a, b] intervals that touch; sorted input not required. */
function merge(intervals) {
  const out = [];
  for (const [a, b] of intervals.slice().sort((x, y) => x[0] - y[0])) {
    if (out.length && a <= out[out.length - 1][1] + 1e-9) out[out.length - 1][1] = Math.max(out[out.length - 1][1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Walls beside each lane segment (long side parallel to it, not straddling it):
 * which side, how far their face is from the lane line, along which stretch of the
 * lane, and whether the reference hand reaches them at shoulder height.
 */
function touchHints(pieces, lane, reach) {
  const { segs, length: total } = laneSegments(lane);
  const hints = [];
  segs.forEach((seg, k) => {
    for (const p of pieces) {
      if (p.kind !== 'wall') continue;
      const lo = sub(p.center, scale(p.size, 0.5)), hi = add(p.center, scale(p.size, 0.5));
      // Axis-aligned boxes only: along/lateral ranges from the two extreme corners.
      const along = [dot(sub(lo, seg.a), seg.dir), dot(sub(hi, seg.a), seg.dir)].sort((x, y) => x - y);
      const lat = [dot(sub(lo, seg.a), seg.left), dot(sub(hi, seg.a), seg.left)].sort((x, y) => x - y);
      if (along[1] - along[0] <= lat[1] - lat[0]) continue; // across the lane: an end or a side of an alcove
      if (lat[0] < 0 && lat[1] > 0) continue;
      const from = Math.max(along[0], 0), to = Math.min(along[1], seg.len);
      if (to <= from) continue;
      const side = lat[0] >= 0 ? 'left' : 'right';
      const distance = side === 'left' ? lat[0] : -lat[1];
      const top = hi[1];
      let reachable = true;
      let why = `face ${m2(distance)} m from the lane, within the ${m2(reach.maxDistance)} m reach at shoulder height (${m2(reach.shoulderHeight)} m)`;
      if (distance > reach.maxDistance) {
        reachable = false;
        why = `face ${m2(distance)} m from the lane, beyond the ${m2(reach.maxDistance)} m reach`;
      } else if (top < reach.shoulderHeight) {
        reachable = false;
        why = `top ${m2(top)} m below the shoulder (${m2(reach.shoulderHeight)} m)`;
      }
      hints.push({ wall: p.name, side, segment: k, from: num(seg.s0 + from), to: num(seg.s0 + to), distance: num(distance), normal: vec(scale(seg.left, side === 'left' ? -1 : 1)), reachable, why });
    }
  });
  const gaps = {};
  for (const side of ['left', 'right']) {
    const covered = merge(hints.filter((h) => h.side === side && h.reachable).map((h) => [h.from, h.to]));
    const g = [];
    let s = 0;
    for (const [a, b] of covered) {
      if (a > s + 1e-9) g.push([num(s), num(a)]);
      s = Math.max(s, b);
    }
    if (s < total - 1e-9) g.push([num(s), num(total)]);
    gaps[side] = g;
  }
  return { hints, gaps, length: total };
}

function corridor(ref) {
  const W = 0.6; // lane line to wall face
  const lane = [[0, 0, 0], [0, 0, 12], [8, 0, 12]];
  const xl = W, xr = -W; // faces of segment A (along +Z)
  const zl = 12 - W, zr = 12 + W; // faces of segment B (along +X): left is −Z there
  const wallX = (name, face, sign, z0, z1) => box(name, 'wall', [sign > 0 ? face : face - WALL_T, 0, z0], [sign > 0 ? face + WALL_T : face, WALL_H, z1]);
  const wallZ = (name, face, sign, x0, x1) => box(name, 'wall', [x0, 0, sign > 0 ? face : face - WALL_T], [x1, WALL_H, sign > 0 ? face + WALL_T : face]);
  const alcove = -1.4;
  const pieces = [
    box('floor', 'floor', [-2, -0.1, -2], [10, 0, 14]),
    // Segment A, left (+X): two 1 m gaps, then the inner corner.
    wallX('wall_left_01', xl, 1, -1, 3.5),
    wallX('wall_left_02', xl, 1, 4.5, 8),
    wallX('wall_left_03', xl, 1, 9, zl - WALL_T),
    // Segment B, left (−Z): starts at the inner corner, one 1 m gap.
    wallZ('wall_left_04', zl, -1, xl, 4),
    wallZ('wall_left_05', zl, -1, 5, 9),
    // Segment A, right (−X): an alcove set back out of reach from z 6 to 9, then the outer corner.
    wallX('wall_right_01', xr, -1, -1, 6),
    box('wall_alcove_01', 'wall', [alcove - WALL_T, 0, 6 - WALL_T], [xr - WALL_T, WALL_H, 6]),
    wallX('wall_right_02', alcove, -1, 6, 9),
    box('wall_alcove_02', 'wall', [alcove - WALL_T, 0, 9], [xr - WALL_T, WALL_H, 9 + WALL_T]),
    wallX('wall_right_03', xr, -1, 9, zr + WALL_T),
    // Segment B, right (+Z): the outer wall.
    wallZ('wall_right_04', zr, 1, xr, 9),
  ];
  const maxDistance = r4(ref.shoulderOffset + HAND_OFFSET + REACH_FRACTION * ref.armLength);
  const reach = {
    shoulderHeight: ref.shoulderHeight,
    shoulderOffset: ref.shoulderOffset,
    armLength: ref.armLength,
    handOffset: HAND_OFFSET,
    maxDistance,
    rule: `a wall is in reach when its face is at most shoulderOffset + handOffset + ${REACH_FRACTION} x armLength from the lane line and its top is at or above shoulderHeight (the hand touches at shoulder height, as the seed fixes the target's height); measured for the ${ref.height} m mannequin`,
  };
  const t = touchHints(pieces, lane, reach);
  return {
    name: 'corridor',
    description: `Corridor for environment interaction: a 1.2 m wide lane with 2.5 m walls ${W} m either side of the lane line, along +Z for 12 m, then a left turn along +X for 8 m. Gaps on the left (z 3.5-4.5, z 8-9, and x 4-5 after the turn), an alcove on the right set back out of reach (z 6-9), an inner corner on the left at (0.6, 11.4) and an outer one on the right at (-0.6, 12.6).`,
    pieces,
    spawn: { position: [0, 0, 0], facing: [0, 0, 1] },
    lane: { points: lane, length: num(t.length) },
    reach,
    touchWalls: t.hints,
    touchGaps: t.gaps,
    corners: [
      { type: 'inner', side: 'left', at: 12, position: [xl, 0, zl] },
      { type: 'outer', side: 'right', at: 12, position: [xr, 0, zr] },
    ],
  };
}

// ---- vault course ---------------------------------------------------------------

/** The vault rule (documented in the file): heights and depths a vault clears. */
export const VAULT_RULE = {
  minHeight: 0.5,
  maxHeight: 1.1,
  minDepth: 0.2,
  maxDepth: 0.6,
  // The vault clip starts 0.7 m before the near face of its box and travels 2.1 m (motion.mjs).
  takeoffDistance: VAULT_BOX.min[2],
  travel: 2.1,
};

export function vaultVerdict(height, depth) {
  const R = VAULT_RULE;
  if (height < R.minHeight) return { vaultable: false, why: `height ${m2(height)} m below ${R.minHeight} m: low enough to step over` };
  if (height > R.maxHeight) return { vaultable: false, why: `height ${m2(height)} m above ${R.maxHeight} m: the hands cannot plant on top and lift the body over (a climb)` };
  if (depth < R.minDepth) return { vaultable: false, why: `depth ${m2(depth)} m below ${R.minDepth} m: too thin to plant the hands on (hurdle it)` };
  if (depth > R.maxDepth) return { vaultable: false, why: `depth ${m2(depth)} m beyond ${R.maxDepth} m: the body cannot pass over from one hand plant (climb onto it)` };
  return { vaultable: true, why: `height ${m2(height)} m in [${R.minHeight}, ${R.maxHeight}] m and depth ${m2(depth)} m in [${R.minDepth}, ${R.maxDepth}] m: hands plant on top, legs tuck over` };
}

function vaultCourse() {
  const WIDTH = 1.6;
  // [name, near face z, height, depth]: 6 m apart so a run-up fits between a landing and the next takeoff.
  const list = [
    ['obstacle_curb_01', 4, 0.3, 0.4],
    ['obstacle_low_01', 10, 0.55, 0.3],
    ['obstacle_low_02', 16, 0.75, 0.4], // the vault clip's own box
    ['obstacle_low_03', 22, 0.9, 0.25],
    ['obstacle_low_04', 28, 1.05, 0.55],
    ['obstacle_high_01', 34, 1.4, 0.4],
    ['obstacle_deep_01', 40, 0.75, 1.2],
  ];
  const pieces = [box('floor', 'floor', [-2, -0.1, -2], [2, 0, 46])];
  const obstacles = [];
  for (const [name, z, h, d] of list) {
    pieces.push(box(name, 'obstacle', [-WIDTH / 2, 0, z], [WIDTH / 2, h, z + d]));
    const v = vaultVerdict(h, d);
    const o = { piece: name, height: h, depth: d, vaultable: v.vaultable, why: v.why, takeoff: [0, 0, num(z - VAULT_RULE.takeoffDistance)] };
    if (v.vaultable) o.landing = [0, 0, num(z - VAULT_RULE.takeoffDistance + VAULT_RULE.travel)];
    obstacles.push(o);
  }
  return {
    name: 'vault-course',
    description: `Vault course: a 4 m wide floor and a lane along x = 0 (+Z) crossed by ${list.length} obstacles ${WIDTH} m wide, 6 m apart: a curb to step over, four vaultable boxes (0.55-1.05 m high, 0.25-0.55 m deep; the third is the vault clip's own 0.75 x 0.4 m box), one too high (1.4 m) and one too deep (1.2 m).`,
    pieces,
    spawn: { position: [0, 0, 0], facing: [0, 0, 1] },
    lane: { points: [[0, 0, 0], [0, 0, 45]], length: 45 },
    vaultRule: {
      ...VAULT_RULE,
      rule: `vaultable when minHeight <= height <= maxHeight and minDepth <= depth <= maxDepth (height = top above the floor, depth = extent along the lane); takeoff is takeoffDistance before the near face (where the vault clip starts), landing is travel further on`,
    },
    obstacles,
  };
}

// ---- nav arena -------------------------------------------------------------------

const AGENT_RADIUS = 0.35;

function navArena() {
  const H = 2;
  const T = WALL_T;
  const pieces = [
    box('floor', 'floor', [-10, -0.1, -10], [10, 0, 10]),
    box('wall_border_front', 'wall', [-10 - T, 0, 10], [10 + T, H, 10 + T]),
    box('wall_border_back', 'wall', [-10 - T, 0, -10 - T], [10 + T, H, -10]),
    box('wall_border_left', 'wall', [10, 0, -10], [10 + T, H, 10]),
    box('wall_border_right', 'wall', [-10 - T, 0, -10], [-10, H, 10]),
    // Room A (front left, x 5-10, z 5-10): door in its back wall at x 6.9-8.1.
    box('wall_room_a_01', 'wall', [4.9, 0, 4.9], [5.1, H, 10]),
    box('wall_room_a_02', 'wall', [5.1, 0, 4.9], [6.9, H, 5.1]),
    box('wall_room_a_03', 'wall', [8.1, 0, 4.9], [10, H, 5.1]),
    // Room B (front right, x -10 to -5, z 5-10): door in its side wall at z 6.9-8.1.
    box('wall_room_b_01', 'wall', [-10, 0, 4.9], [-4.9, H, 5.1]),
    box('wall_room_b_02', 'wall', [-5.1, 0, 5.1], [-4.9, H, 6.9]),
    box('wall_room_b_03', 'wall', [-5.1, 0, 8.1], [-4.9, H, 10]),
    // A divider at z = 1 with a 0.9 m gap (x -4.45 to -3.55): the short way to behind_gap.
    box('wall_divider_01', 'wall', [-10, 0, 0.9], [-4.45, H, 1.1]),
    box('wall_divider_02', 'wall', [-3.55, 0, 0.9], [-1, H, 1.1]),
    // Two boxes with a 0.5 m slit between them, narrower than the agent.
    box('obstacle_box_01', 'obstacle', [1, 0, -4], [3, 1, -2]),
    box('obstacle_box_02', 'obstacle', [3.5, 0, -4], [5.5, 1, -2]),
    box('obstacle_box_03', 'obstacle', [-6.75, 0, -5.75], [-5.25, 2, -4.25]),
    box('obstacle_box_04', 'obstacle', [1.5, 0, 2.5], [2.5, 0.5, 5.5]),
    // A platform 1 m high in the back left corner, reached by a ramp rising toward −Z.
    box('platform', 'floor', [6, 0, -10], [10, 1, -6]),
    slab('ramp', 'ramp', [8, 0, -2], [8, 1, -6], 2, 0.1),
  ];
  const rampTop = [8, 1, -6], rampBottom = [8, 0, -2];
  const slope = (Math.atan2(rampTop[1] - rampBottom[1], Math.hypot(rampTop[0] - rampBottom[0], rampTop[2] - rampBottom[2])) * 180) / Math.PI;
  const opening = (name, kind, between, center, width) => ({ name, kind, between, center, width, passable: width >= 2 * AGENT_RADIUS });
  return {
    name: 'nav-arena',
    description: 'Nav arena: a flat 20 x 20 m floor (x, z in [-10, 10]) walled 2 m high, two rooms with 1.2 m doors (front left and front right), a divider with a 0.9 m gap, two boxes with a 0.5 m slit the agent does not fit through, a pillar, a low box, and a 1 m platform reached by a 4 m ramp.',
    pieces,
    spawn: { position: [0, 0, -8], facing: [0, 0, 1] },
    agentRadius: AGENT_RADIUS,
    destinations: [
      { name: 'room_a', position: [7.5, 0, 7.5] },
      { name: 'room_b', position: [-7.5, 0, 7.5] },
      { name: 'behind_gap', position: [-4, 0, 3] },
      { name: 'platform', position: [8, 1, -8] },
      { name: 'back_right', position: [-8.5, 0, -8.5] },
      { name: 'front_middle', position: [0, 0, 8] },
    ],
    openings: [
      opening('room_a_door', 'door', ['wall_room_a_02', 'wall_room_a_03'], [7.5, 0, 5], 1.2),
      opening('room_b_door', 'door', ['wall_room_b_02', 'wall_room_b_03'], [-5, 0, 7.5], 1.2),
      opening('narrow_gap', 'gap', ['wall_divider_01', 'wall_divider_02'], [-4, 0, 1], 0.9),
      opening('slit', 'gap', ['obstacle_box_01', 'obstacle_box_02'], [3.25, 0, -3], 0.5),
    ],
    ramp: { piece: 'ramp', bottom: rampBottom, top: rampTop, width: 2, slopeDeg: num(slope) },
  };
}

// ---- writing ---------------------------------------------------------------------

/** JSON with a fixed key order; arrays of numbers (or of number arrays) and flat objects stay on one line. */
function stringify(v, indent = '') {
  const scalar = (x) => x === null || typeof x !== 'object';
  const flat = (x) => scalar(x) || (Array.isArray(x) && x.every((y) => scalar(y) || (Array.isArray(y) && y.every(scalar))));
  if (flat(v)) return Array.isArray(v) ? `[${v.map((y) => stringify(y)).join(', ')}]` : JSON.stringify(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return `[\n${v.map((y) => inner + stringify(y, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(v);
  if (entries.every(([, y]) => flat(y))) return `{ ${entries.map(([k, y]) => `${JSON.stringify(k)}: ${stringify(y)}`).join(', ')} }`;
  return `{\n${entries.map(([k, y]) => `${inner}${JSON.stringify(k)}: ${stringify(y, inner)}`).join(',\n')}\n${indent}}`;
}

function levelJson(level) {
  const { name, description, pieces, spawn, ...purpose } = level;
  return `${stringify({ name, description, units: 'm', pieces, spawn, ...purpose })}\n`;
}

/** A box of `size` centred on the origin: 24 vertices (flat normals), 36 indices, counter-clockwise outside. */
function boxMesh(size) {
  const h = scale(size, 0.5);
  const P = [];
  const N = [];
  const I = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const n = [0, 0, 0];
      n[axis] = sign;
      const u = [0, 0, 0], v = [0, 0, 0];
      u[(axis + 1) % 3] = 1;
      v[(axis + 2) % 3] = 1;
      // u × v = +axis: walk (−u−v, +u−v, +u+v, −u+v) for the + face, reversed for the − face.
      const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]];
      if (sign < 0) corners.reverse();
      const base = P.length / 3;
      for (const [a, b] of corners) {
        for (let c = 0; c < 3; c++) P.push((n[c] + u[c] * a + v[c] * b) * h[c]);
        N.push(...n);
      }
      I.push(base, base + 1, base + 2, base, base + 2, base + 3);
    }
  }
  return { positions: new Float32Array(P), normals: new Float32Array(N), indices: new Uint16Array(I) };
}

function levelGlb(level) {
  const g = new GltfBuilder();
  const kinds = KINDS.filter((k) => level.pieces.some((p) => p.kind === k));
  const materials = kinds.map((k) => ({ name: k, pbrMetallicRoughness: { baseColorFactor: COLORS[k], metallicFactor: 0, roughnessFactor: 0.9 } }));
  const meshes = [];
  const nodes = [{ name: level.name, children: level.pieces.map((_, i) => i + 1) }];
  level.pieces.forEach((p, i) => {
    const m = boxMesh(p.size);
    meshes.push({
      name: p.name,
      primitives: [
        {
          attributes: {
            POSITION: g.accessor(m.positions, 'VEC3', { target: TARGET.ARRAY_BUFFER, minmax: true }),
            NORMAL: g.accessor(m.normals, 'VEC3', { target: TARGET.ARRAY_BUFFER }),
          },
          indices: g.accessor(m.indices, 'SCALAR', { target: TARGET.ELEMENT_ARRAY_BUFFER }),
          material: kinds.indexOf(p.kind),
          mode: 4,
        },
      ],
    });
    nodes.push({ name: p.name, mesh: i, translation: p.center, rotation: p.rotation, extras: { kind: p.kind, shape: p.shape } });
  });
  return g.glb({
    asset: { version: '2.0', generator: 'limber assets/generate', extras: { level: level.name, units: 'm', up: '+Y', forward: '+Z', left: '+X' } },
    scene: 0,
    scenes: [{ name: level.name, nodes: [0] }],
    nodes,
    meshes,
    materials,
  });
}

export const LEVELS = ['corridor', 'vault-course', 'nav-arena'];

/** Shortest decimal that reads back as the same float32 (Recast's vertices are float32). */
function f32(x) {
  for (let p = 1; p < 10; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y + 0;
  }
  return x + 0;
}

/**
 * A level's navmesh, baked with Recast through the bridge (bakeNavMeshData), in Limber's
 * format: one vertex, polygon or neighbour list per line, fixed key order.
 */
export async function levelNavMesh(bridge, levelText) {
  const level = JSON.parse(levelText);
  const mesh = await bridge.bakeNavMeshData(level);
  const line = (a) => `[${a.join(', ')}]`;
  const block = (rows) => `[\n${rows.map((r) => `    ${r}`).join(',\n')}\n  ]`;
  const settings = Object.entries(mesh.settings).map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ');
  return [
    '{',
    `  "format": "limber-navmesh",`,
    `  "version": 1,`,
    `  "source": { "level": ${JSON.stringify(level.name)}, "baker": ${JSON.stringify(mesh.source.baker)} },`,
    `  "settings": { ${settings} },`,
    `  "bounds": [${mesh.bounds.map((b) => line(b.map((x) => f32(Math.fround(x))))).join(', ')}],`,
    `  "vertices": ${block(mesh.vertices.map((v) => line(v.map((x) => f32(Math.fround(x))))))},`,
    `  "polygons": ${block(mesh.polygons.map(line))},`,
    `  "neighbours": ${block(mesh.neighbours.map(line))}`,
    '}',
    '',
  ].join('\n');
}

/** The level files for the reference character (see referenceCharacter): [relative path, bytes]. */
export function levelFiles(ref) {
  const levels = [corridor(ref), vaultCourse(), navArena()];
  const files = [];
  for (const level of levels) {
    checkLevel(level);
    files.push([`levels/${level.name}.glb`, levelGlb(level)]);
    files.push([`levels/${level.name}.json`, new TextEncoder().encode(levelJson(level))]);
  }
  return files;
}

// Checked here (not only in the tests) so a bad edit fails the generator: every
// piece is finite with positive size and a unit rotation, names are unique.
function checkLevel(json) {
  const seen = new Set();
  for (const p of json.pieces) {
    if (seen.has(p.name)) throw new Error(`levels: ${json.name}: duplicate piece ${p.name}`);
    seen.add(p.name);
    if (![...p.center, ...p.size, ...p.rotation].every(Number.isFinite)) throw new Error(`levels: ${json.name}: ${p.name} is not finite`);
    if (p.size.some((s) => s <= 0)) throw new Error(`levels: ${json.name}: ${p.name} has a non-positive size`);
    if (Math.abs(Math.hypot(...p.rotation) - 1) > 1e-6) throw new Error(`levels: ${json.name}: ${p.name} rotation is not unit`);
    if (!KINDS.includes(p.kind)) throw new Error(`levels: ${json.name}: ${p.name} has kind ${p.kind}`);
  }
  return json;
}
