// Skeletons straight from the core's procedural humanoid (lb_world_add_humanoid)
// through the wasm bridge, so the glTF rigs are exactly the rigs the core builds.
import { add, qmul, qrot, QI } from './math.mjs';

/** Conventions in lb_humanoid_naming order. */
export const NAMINGS = ['mixamo', 'unreal', 'blender', 'digits'];

/** Model-space rest positions and rotations from local TRS (float64). */
export function modelRest(parents, rest) {
  const pos = [];
  const rot = [];
  parents.forEach((p, j) => {
    if (p < 0) {
      pos.push(rest[j].t.slice());
      rot.push(rest[j].r.slice());
    } else {
      pos.push(add(pos[p], qrot(rot[p], rest[j].t)));
      rot.push(qmul(rot[p], rest[j].r));
    }
  });
  return { pos, rot };
}

/**
 * Reads one humanoid per convention. Each rig gets `roles`: for every joint the
 * name of the matching Mixamo joint (the canonical "anatomical" role the motion is
 * written for), or null for joints the Mixamo rig lacks (Unreal's metacarpals).
 * The match is by depth-first order and is checked against rest positions and
 * parents, so a change in the core's builder fails here instead of mis-animating.
 */
export async function readRigs(bridge, height = 1.8) {
  const world = await bridge.createWorld();
  try {
    const rigs = NAMINGS.map((naming) => {
      const asset = world.addHumanoidRig({ height, naming });
      const e = world.spawn();
      world.insert(e, bridge.Rig, { asset });
      world.step(0); // no animation: the local pose is the rest pose
      const { names, parents } = world.skeleton(asset);
      const rest = world.localPose(e).map((x) => ({ t: x.t.slice(), r: x.r.slice(), s: x.s.slice() }));
      for (const x of rest) {
        if (x.s.some((v) => v !== 1)) throw new Error(`assets: ${naming} rig has a non-unit rest scale`);
      }
      return { naming, height, names, parents, rest, ...modelRest(parents, rest) };
    });
    const canon = rigs[0];
    canon.rot.forEach((r, j) => {
      if (r.some((v, i) => v !== QI[i])) throw new Error(`assets: mixamo joint ${canon.names[j]} has a rest rotation; the motion assumes none`);
    });
    for (const rig of rigs) assignRoles(rig, canon);
    return { canon, rigs };
  } finally {
    world.destroy();
  }
}

function assignRoles(rig, canon) {
  const roles = [];
  let k = 0;
  rig.names.forEach((name, j) => {
    if (/metacarpal/.test(name)) {
      roles.push(null);
      return;
    }
    const role = canon.names[k];
    const d = Math.hypot(...rig.pos[j].map((v, i) => v - canon.pos[k][i]));
    if (d > 1e-5) throw new Error(`assets: ${rig.naming} joint ${name} is ${d} m from ${role}: the builders disagree`);
    let p = rig.parents[j];
    while (p >= 0 && roles[p] === null) p = rig.parents[p];
    const cp = canon.parents[k];
    if ((p < 0 ? -1 : canon.names.indexOf(roles[p])) !== cp) throw new Error(`assets: ${rig.naming} joint ${name} has another parent than ${role}`);
    roles.push(role);
    k++;
  });
  if (k !== canon.names.length) throw new Error(`assets: ${rig.naming} maps ${k} of ${canon.names.length} roles`);
  rig.roles = roles;
  rig.jointOf = new Map(roles.map((r, j) => [r, j]).filter(([r]) => r !== null));
}
