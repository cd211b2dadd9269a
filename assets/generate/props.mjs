// Props: scene-entity fragments (the `entities` format of assets/scenes/*.json).
// Each has an object entity with Transform + GripProfile, anchor entities (palm
// frames: origin at the palm centre, +Z along the fingers, +Y out of the palm) and
// GripSurface entities, all children of the object. Entity names are prefixed by
// the prop's name ("rifle.mainAnchor") so several props fit in one scene.
// Object frames: +Z forward (muzzle, hammer face), +Y up, metres, real-world sizes.
import { cross, DEG, normalize, qFromColumns, qx, scale, sub, dot, add } from './math.mjs';

// Enum spellings as the core's component schema has them (components_schema.c).
const SHAPE = { cylinder: 'Cylinder', capsule: 'Capsule', sphere: 'Sphere', box: 'Box' };
/** Palm-to-surface distance: half a hand's thickness, metres. */
const PALM = 0.02;

const num = (x) => Number(x.toFixed(7)) + 0; // + 0 turns -0 into 0
const vec = (v) => v.map(num);

/** Palm frame from the palm normal (+Y, toward the object) and a finger direction (made ⟂). */
function palm(y, fingers) {
  const Y = normalize(y);
  const Z = normalize(sub(fingers, scale(Y, dot(Y, fingers))));
  return qFromColumns(cross(Y, Z), Y, Z);
}

function transform(parent, position, rotation) {
  const t = { parent, position: vec(position) };
  if (rotation) t.rotation = vec(rotation);
  return t;
}

function surface(prop, name, kind, position, rotation, fields) {
  const s = { shape: SHAPE[kind] };
  if (kind === 'cylinder' || kind === 'capsule') s.direction = fields.direction;
  s.center = [0, 0, 0];
  if (kind !== 'box') s.radius = num(fields.radius);
  if (kind === 'cylinder' || kind === 'capsule') s.height = num(fields.height);
  if (kind === 'box') s.size = vec(fields.size);
  return { name: `${prop}.${name}`, components: { Transform: transform(prop, position, rotation), GripSurface: s } };
}

function anchor(prop, name, position, rotation) {
  return { name: `${prop}.${name}`, components: { Transform: transform(prop, position, rotation) } };
}

function object(prop, profile) {
  return {
    name: prop,
    components: {
      Transform: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      GripProfile: {
        mainAnchor: `${prop}.mainAnchor`,
        supportAnchor: profile.support ? `${prop}.supportAnchor` : null,
        mainPose: profile.mainPose,
        supportPose: profile.support ? profile.supportPose : '',
        hand: 'Right',
        mirror: 'X',
        wrap: true,
      },
    },
  };
}

/** A slanted grip: axis tilted back by `slant` degrees from vertical (bottom toward −Z). */
function slantedGrip(centre, slant, radius) {
  const rot = qx(slant * DEG);
  const axis = [0, Math.cos(slant * DEG), Math.sin(slant * DEG)]; // toward the top of the grip
  const across = [0, -Math.sin(slant * DEG), Math.cos(slant * DEG)]; // forward, ⟂ to the axis
  // The right palm sits on the grip's right (−X) and a little behind; fingers wrap forward.
  const n0 = [1, 0, 0.35];
  const normal = normalize(sub(n0, scale(axis, dot(axis, n0))));
  const pos = sub(add(centre, scale(axis, 0.01)), scale(normal, radius + PALM));
  return { rot, anchorPos: pos, anchorRot: palm(normal, across) };
}

function rifle() {
  const p = 'rifle';
  const gripC = [0, -0.055, -0.02];
  const grip = slantedGrip(gripC, 15, 0.015);
  const guardC = [0, 0.03, 0.28];
  const guardR = 0.022;
  // The left palm cups the handguard from below-left; fingers wrap over to the right.
  const supN = normalize([-0.3, 1, 0]);
  return {
    name: p,
    description: 'Rifle, 0.90 m from stock (z -0.36) to muzzle (z +0.54): stock, receiver, pistol grip, magazine, handguard, barrel; origin at the top of the pistol grip, +Z toward the muzzle, +Y up. Main (right) palm on the pistol grip, support (left) palm under the handguard.',
    entities: [
      object(p, { mainPose: 'pistol', support: true, supportPose: 'support' }),
      anchor(p, 'mainAnchor', grip.anchorPos, grip.anchorRot),
      anchor(p, 'supportAnchor', sub(guardC, scale(supN, guardR + PALM)), palm(supN, [-1, 0, 0.15])),
      surface(p, 'grip', 'cylinder', gripC, grip.rot, { direction: 'Y', radius: 0.015, height: 0.11 }),
      surface(p, 'handguard', 'cylinder', guardC, null, { direction: 'Z', radius: guardR, height: 0.26 }),
      surface(p, 'receiver', 'box', [0, 0.035, 0], null, { size: [0.05, 0.07, 0.3] }),
      surface(p, 'stock', 'box', [0, 0.01, -0.26], null, { size: [0.04, 0.12, 0.2] }),
      surface(p, 'barrel', 'cylinder', [0, 0.035, 0.475], null, { direction: 'Z', radius: 0.009, height: 0.13 }),
      // In front of the trigger, raked forward 10°, its top in the receiver: clear of the
      // fingers round the pistol grip (which stop on it if a pose reaches that far).
      surface(p, 'magazine', 'box', [0, -0.04, 0.08], qx(-10 * DEG), { size: [0.028, 0.12, 0.05] }),
    ],
  };
}

function pistol() {
  const p = 'pistol';
  const gripC = [0, -0.05, -0.015];
  const grip = slantedGrip(gripC, 18, 0.015);
  return {
    name: p,
    description: 'Pistol, 0.19 m long; origin at the top of the grip, +Z toward the muzzle, +Y up. One-handed: the right palm on the grip.',
    entities: [
      object(p, { mainPose: 'pistol', support: false }),
      anchor(p, 'mainAnchor', grip.anchorPos, grip.anchorRot),
      surface(p, 'grip', 'box', gripC, grip.rot, { size: [0.03, 0.1, 0.045] }),
      surface(p, 'slide', 'box', [0, 0.025, 0.03], null, { size: [0.03, 0.035, 0.19] }),
    ],
  };
}

function hammer() {
  const p = 'hammer';
  const r = 0.016;
  return {
    name: p,
    description: 'Hammer, 0.33 m; origin at the bottom of the handle, handle along +Y, head face toward +Z. The right palm holds the handle a third of the way up.',
    entities: [
      object(p, { mainPose: 'handle', support: false }),
      anchor(p, 'mainAnchor', [-(r + PALM), 0.09, 0], palm([1, 0, 0], [0, 0, 1])),
      surface(p, 'handle', 'cylinder', [0, 0.15, 0], null, { direction: 'Y', radius: r, height: 0.3 }),
      surface(p, 'head', 'box', [0, 0.31, 0.01], null, { size: [0.035, 0.035, 0.13] }),
    ],
  };
}

function cup() {
  const p = 'cup';
  const r = 0.04;
  return {
    name: p,
    description: 'Cup, 8 cm wide and 10 cm tall; origin at the centre of its base, +Y up. The right palm on its side, fingers around the front.',
    entities: [
      object(p, { mainPose: 'cup', support: false }),
      anchor(p, 'mainAnchor', [-(r + PALM), 0.05, 0], palm([1, 0, 0], [0, 0, 1])),
      surface(p, 'body', 'cylinder', [0, 0.05, 0], null, { direction: 'Y', radius: r, height: 0.1 }),
    ],
  };
}

function ball() {
  const p = 'ball';
  const r = 0.05;
  return {
    name: p,
    description: 'Ball, 10 cm across; origin at its centre. The right palm cups it from below, fingers forward.',
    entities: [
      object(p, { mainPose: 'cup', support: false }),
      anchor(p, 'mainAnchor', [0, -(r + PALM), 0], palm([0, 1, 0], [0, 0, 1])),
      surface(p, 'body', 'sphere', [0, 0, 0], null, { radius: r }),
    ],
  };
}

export const PROPS = [rifle, pistol, hammer, cup, ball];

/** The prop files: [name, JSON text]. */
export function propFiles() {
  return PROPS.map((make) => {
    const prop = make();
    return [prop.name, `${JSON.stringify(prop, null, 2)}\n`];
  });
}
