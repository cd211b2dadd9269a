/** The grip editor's document and the world, both ways: the document a world holds now
 * (`docFromWorld`), and writing a document into a world (`writeDoc`, in named stages: poses,
 * anchors, profile, surfaces, holder and clip). The editor calls `writeDoc` on the restored
 * preview snapshot before its one step, so the world shown is a function of the document. */
import { GripHolder, GripProfile, GripSurface, Transform, type Entity, type FingerName, type HandSide, type World } from '../../bridge/browser.js';
import { clone, poseName, ROLES, type GripDoc, type LocalXf, type PoseDoc, type ProfileInfo, type Role, type SurfaceDoc } from './grip-doc.js';

/** Entity names and the entities the views draw (the editor adds the surfaces it spawns). */
export interface SceneNames {
  nameOf: Map<Entity, string>;
  drawn: Entity[];
}

/** The object's GripSurface entities among the drawn ones, by name. */
export function objectSurfaces(world: World, { nameOf, drawn }: SceneNames, object: Entity): Map<string, Entity> {
  const out = new Map<string, Entity>();
  for (const e of drawn) {
    const n = nameOf.get(e);
    if (n !== undefined && world.alive(e) && world.has(e, GripSurface) && world.get(e, Transform).parent === object) out.set(n, e);
  }
  return out;
}

/** The document as the world has it now (first preview, or after the pickers changed). */
export function docFromWorld(w: World, { nameOf, drawn }: SceneNames, holder: Entity, object: Entity): GripDoc {
  const name = (e: Entity): string => nameOf.get(e) ?? '';
  const profile = w.get(object, GripProfile);
  const xf = (e: Entity): LocalXf | null => {
    if (e === 0 || !w.alive(e)) return null;
    const t = w.get(e, Transform);
    return { position: [...t.position], rotation: [...t.rotation] };
  };
  const surfaces: SurfaceDoc[] = [];
  for (const e of drawn) {
    if (!w.alive(e) || !w.has(e, GripSurface) || w.get(e, Transform).parent !== object) continue;
    const t = w.get(e, Transform);
    const s = w.get(e, GripSurface);
    surfaces.push({ name: name(e), position: [...t.position], rotation: [...t.rotation], data: { shape: s.shape, direction: s.direction, center: [...s.center], radius: s.radius, height: s.height, size: [...s.size] } });
  }
  const pose = (n: string): PoseDoc => ({ kind: 'def', base: n, def: w.grip.poseByJoint(n) });
  return {
    holder: name(holder),
    object: name(object),
    mainHand: w.has(holder, GripHolder) ? w.get(holder, GripHolder).mainHand : profile.hand,
    wrap: profile.wrap,
    anchors: { main: xf(profile.mainAnchor), support: xf(profile.supportAnchor) },
    surfaces,
    poses: { main: pose(profile.mainPose || 'pistol'), support: pose(profile.supportPose || 'support') },
    clip: null,
    time: 0,
  };
}

/** The object's anchor entity for a role (0: none). */
export function anchorOf(w: World, object: Entity, role: Role): Entity {
  const p = w.get(object, GripProfile);
  return role === 'main' ? p.mainAnchor : p.supportAnchor;
}

/** What an exported fragment needs of the object's GripProfile besides the document. */
export function profileInfo(w: World, nameOf: Map<Entity, string>, object: Entity): ProfileInfo {
  const p = w.get(object, GripProfile);
  const anchor = (e: Entity): string | null => (e === 0 ? null : (nameOf.get(e) ?? ''));
  return { anchors: { main: anchor(p.mainAnchor), support: anchor(p.supportAnchor) }, hand: p.hand, mirror: p.mirror };
}

/** Both hands' poses registered under the editor's names. */
function registerPoses(w: World, d: GripDoc): void {
  for (const role of ROLES) {
    const p = d.poses[role];
    if (p.kind === 'def') w.grip.registerPose(poseName(role, p), p.def);
    else w.grip.registerFingerPose(poseName(role, p), p.pose);
  }
}

/** The anchors' local transforms, and the profile's wrap and pose names. */
function writeProfile(w: World, object: Entity, d: GripDoc): void {
  for (const role of ROLES) {
    const a = anchorOf(w, object, role);
    const x = d.anchors[role];
    if (x && a !== 0 && w.alive(a)) {
      w.update(a, Transform, (t) => {
        t.position = [...x.position];
        t.rotation = [...x.rotation];
      });
    }
  }
  w.update(object, GripProfile, (g) => {
    g.wrap = d.wrap;
    g.mainPose = poseName('main', d.poses.main);
    g.supportPose = poseName('support', d.poses.support);
  });
}

/** Surfaces: the object's own and the ones made here, by name (`surfaces` is updated: the
 * document's surfaces and their entities). New ones are drawn and named. */
function writeSurfaces(w: World, names: SceneNames, object: Entity, d: GripDoc, surfaces: Map<string, Entity>): void {
  const wanted = new Set(d.surfaces.map((s) => s.name));
  for (const [n, e] of surfaces) {
    if (!wanted.has(n) && w.alive(e)) w.despawn(e);
    if (!wanted.has(n)) surfaces.delete(n);
  }
  for (const s of d.surfaces) {
    let e = surfaces.get(s.name);
    if (e === undefined || !w.alive(e)) {
      e = w.spawn();
      w.insert(e, Transform, { parent: object, position: [...s.position], rotation: [...s.rotation] });
      w.insert(e, GripSurface, clone(s.data));
      surfaces.set(s.name, e);
      if (!names.drawn.includes(e)) names.drawn.push(e);
      names.nameOf.set(e, s.name);
    } else {
      w.update(e, Transform, (t) => {
        t.position = [...s.position];
        t.rotation = [...s.rotation];
      });
      w.update(e, GripSurface, (g) => {
        Object.assign(g, clone(s.data));
      });
    }
  }
}

/** The holder holds the object at once (Object placement, no blend), on the document's clip
 * frame when it has one (`clip`: the clip's handle, undefined without one). */
function writeHolder(w: World, holder: Entity, object: Entity, d: GripDoc, clip: number | undefined): void {
  const holderFields = { held: object, placement: 'Object' as const, blendSeconds: 0, mainHand: d.mainHand };
  if (w.has(holder, GripHolder)) w.update(holder, GripHolder, (h) => void Object.assign(h, holderFields));
  else w.insert(holder, GripHolder, holderFields);
  if (d.clip !== null && clip !== undefined) w.setAnimationPose(holder, w.anim.sampleClip(clip, d.time, { loop: true }));
}

/** Writes the document into the world (not stepped). */
export function writeDoc(w: World, names: SceneNames, ids: { holder: Entity; object: Entity; clip: number | undefined }, d: GripDoc, surfaces: Map<string, Entity>): void {
  registerPoses(w, d);
  writeProfile(w, ids.object, d);
  writeSurfaces(w, names, ids.object, d, surfaces);
  writeHolder(w, ids.holder, ids.object, d, ids.clip);
}

/** The palms' distances to their anchors (metres) and the fingers touching a surface, per role. */
export function holdStatus(w: World, holder: Entity, mainHand: HandSide): { mainDistance: number; supportDistance: number; contacts: Record<Role, FingerName[]> } {
  const h = w.get(holder, GripHolder);
  const st = w.grip.status(holder);
  const main = mainHand === 'Right' ? st.right : st.left;
  const support = mainHand === 'Right' ? st.left : st.right;
  return { mainDistance: h.mainDistance, supportDistance: h.supportDistance, contacts: { main: main.contacts, support: support.contacts } };
}
