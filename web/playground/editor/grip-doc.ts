/** The grip editor's document (`GripDoc`) and what is computed from it alone: the scene
 * fragment it exports, the document an imported fragment and pose give, the scene file with
 * the document written in, a new surface across the palm. No world and no page here: the
 * world side is doc-world.ts, the page side editor-panel.ts. */
import * as THREE from 'three';
import type { FingerName, FingerPose, FingerShape, GripPoseDef, GripSurfaceData, HandSide, Quat, Vec3 } from '../../bridge/browser.js';

export const BUILTIN_POSES = ['open', 'relaxed', 'fist', 'pistol', 'support', 'handle', 'pinch', 'cup'] as const;
export type Role = 'main' | 'support';
export const ROLES = ['main', 'support'] as const;

/** A hand's pose in the document: a per-joint definition (editable) or a captured finger pose. */
export type PoseDoc = { kind: 'def'; base: string; def: GripPoseDef } | { kind: 'captured'; name: string; pose: FingerPose };

export interface LocalXf {
  position: Vec3;
  rotation: Quat;
}

export interface SurfaceDoc extends LocalXf {
  name: string;
  data: Pick<GripSurfaceData, 'shape' | 'direction' | 'center' | 'radius' | 'height' | 'size'>;
}

export interface GripDoc {
  holder: string;
  object: string;
  mainHand: HandSide;
  wrap: boolean;
  anchors: Record<Role, LocalXf | null>;
  surfaces: SurfaceDoc[];
  poses: Record<Role, PoseDoc>;
  clip: string | null;
  time: number;
}

export interface FragmentEntity {
  name: string;
  components: Record<string, unknown>;
}

/** A scene fragment: the entities to merge into a scene file. */
export interface SceneFragment {
  entities: FragmentEntity[];
}

/** What the document does not hold of the object's GripProfile: its anchor entities' names
 * (null: the profile has no such anchor), the hand it is authored for, its mirror axis. */
export interface ProfileInfo {
  anchors: Record<Role, string | null>;
  hand: HandSide;
  mirror: string;
}

/** A finger's shape in a pose (the thumb has opposition and gap instead: null). */
export function shapeOf(def: GripPoseDef, f: FingerName, create = false): FingerShape | null {
  if (f === 'thumb') return null;
  if (create) def[f] ??= {};
  return def[f] ?? null;
}

/** Degrees of bend of a finger joint (0..2) in a pose, or null (a captured pose, or unset). */
export function bendIn(p: PoseDoc, finger: FingerName, joint: number): number | null {
  return p.kind === 'def' ? (shapeOf(p.def, finger)?.bend?.[joint] ?? null) : null;
}

/** Sets a finger joint's bend (degrees, to 1e-4); false for a captured pose or the thumb. */
export function setBendIn(p: PoseDoc, finger: FingerName, joint: number, deg: number): boolean {
  const f = p.kind === 'def' ? shapeOf(p.def, finger, true) : null;
  if (!f) return false;
  (f.bend ??= [0, 0, 0])[joint] = round(deg, 4);
  return true;
}

/** Sets a finger's fan (degrees, to 1e-4) in a per-joint pose. */
export function setFanIn(p: PoseDoc, finger: FingerName, deg: number): void {
  const f = p.kind === 'def' ? shapeOf(p.def, finger, true) : null;
  if (f) f.fan = round(deg, 4);
}

/** Sets the thumb's opposition or gap (clamped to 0..1) in a per-joint pose. */
export function setThumbIn(p: PoseDoc, key: 'opposition' | 'gap', x: number): void {
  if (p.kind === 'def') (p.def.thumb ??= {})[key] = Math.min(1, Math.max(0, x));
}

// Grip poses and finger poses are looked up by one name, grip poses first: a captured pose
// gets its own name so that a per-joint pose registered earlier does not hide it.
const POSE_NAME: Record<Role, string> = { main: 'editor.main', support: 'editor.support' };
export const poseName = (role: Role, p: PoseDoc): string => (p.kind === 'def' ? POSE_NAME[role] : `${POSE_NAME[role]}.captured`);
export const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
export const round = (x: number, digits = 6): number => Number(x.toFixed(digits));

/** Pose names the exported fragment gives the object's profile: the edited hand's export is
 * `<object>.<role>`, the other hand keeps its named pose. */
function exportNames(d: GripDoc, editRole: Role): Record<Role, string> {
  const name = (role: Role): string => {
    const p = d.poses[role];
    if (role === editRole) return `${d.object}.${role}`;
    return p.kind === 'def' ? p.base : p.name;
  };
  return { main: name('main'), support: name('support') };
}

/** GripProfile + anchors + surfaces as a scene fragment ({ entities: [...] }). */
export function exportFragment(d: GripDoc, editRole: Role, info: ProfileInfo): SceneFragment {
  const names = exportNames(d, editRole);
  const entities: FragmentEntity[] = [
    {
      name: d.object,
      components: {
        GripProfile: {
          mainAnchor: info.anchors.main ?? '',
          supportAnchor: info.anchors.support ?? '',
          mainPose: names.main,
          supportPose: names.support,
          hand: info.hand,
          mirror: info.mirror,
          wrap: d.wrap,
        },
      },
    },
  ];
  for (const role of ROLES) {
    const x = d.anchors[role];
    const anchor = info.anchors[role];
    if (x && anchor !== null) entities.push({ name: anchor, components: { Transform: { parent: d.object, position: x.position, rotation: x.rotation } } });
  }
  for (const s of d.surfaces) {
    entities.push({ name: s.name, components: { Transform: { parent: d.object, position: s.position, rotation: s.rotation }, GripSurface: clone(s.data) } });
  }
  return { entities };
}

type FileEntity = { name?: string; components?: Record<string, Record<string, unknown>> };

/** The profile's pose names and wrap from an imported fragment; the edited hand takes the
 * imported captured pose. A named pose is taken only if every world knows it (a builtin). */
function importProfile(next: GripDoc, editRole: Role, profile: Record<string, unknown> | undefined, pose: FingerPose | null, poseByJoint: (name: string) => GripPoseDef): void {
  if (profile) {
    if (typeof profile.wrap === 'boolean') next.wrap = profile.wrap;
    for (const role of ROLES) {
      const n = profile[role === 'main' ? 'mainPose' : 'supportPose'];
      if (typeof n !== 'string' || n === '') continue;
      if (role === editRole && pose) next.poses[role] = { kind: 'captured', name: n, pose };
      else if ((BUILTIN_POSES as readonly string[]).includes(n)) next.poses[role] = { kind: 'def', base: n, def: poseByJoint(n) };
    }
  } else if (pose) {
    next.poses[editRole] = { kind: 'captured', name: `${next.object}.${editRole}`, pose };
  }
}

/** The anchors (entities named as the profile's anchors) and surfaces (entities with a
 * GripSurface) of an imported fragment; a fragment with surfaces replaces the document's. */
function importPlacement(next: GripDoc, entities: FileEntity[], info: ProfileInfo): void {
  const surfaces: SurfaceDoc[] = [];
  let sawSurfaces = false;
  for (const ent of entities) {
    const t = ent.components?.Transform as { position?: Vec3; rotation?: Quat } | undefined;
    const gs = ent.components?.GripSurface as Partial<SurfaceDoc['data']> | undefined;
    const x: LocalXf = { position: t?.position ?? [0, 0, 0], rotation: t?.rotation ?? [0, 0, 0, 1] };
    if (gs && ent.name) {
      sawSurfaces = true;
      const base: SurfaceDoc['data'] = { shape: 'Cylinder', direction: 'Y', center: [0, 0, 0], radius: 0.02, height: 0.1, size: [0.05, 0.05, 0.05] };
      surfaces.push({ name: ent.name, ...x, data: { ...base, ...gs } });
    } else if (t && ent.name === (info.anchors.main ?? '')) next.anchors.main = x;
    else if (t && ent.name === (info.anchors.support ?? '')) next.anchors.support = x;
  }
  if (sawSurfaces) next.surfaces = surfaces;
}

/** The document an exported fragment and (optionally) a captured pose for the edited hand
 * give, starting from `d` (which is not changed). Throws on text that is not a fragment. */
export function importDoc(d: GripDoc, editRole: Role, fragmentText: string, poseText: string, info: ProfileInfo, poseByJoint: (name: string) => GripPoseDef): GripDoc {
  const frag = JSON.parse(fragmentText) as { entities?: FileEntity[] };
  if (!Array.isArray(frag.entities)) throw new Error('the fragment has no "entities" list');
  const pose = poseText.trim() ? (JSON.parse(poseText) as FingerPose) : null;
  const next = clone(d);
  importProfile(next, editRole, frag.entities.find((e) => e.name === d.object)?.components?.GripProfile, pose, poseByJoint);
  importPlacement(next, frag.entities, info);
  return next;
}

/** A scene cannot register poses, so the profile keeps pose names every world knows (the
 * named pose a hand started from, or the scene's own); returns what the description should
 * say to register instead. */
function keepKnownPoses(d: GripDoc, profile: Record<string, unknown>, oldProfile: Record<string, unknown>): string[] {
  const notes: string[] = [];
  for (const role of ROLES) {
    const key = role === 'main' ? 'mainPose' : 'supportPose';
    const p = d.poses[role];
    const exported = profile[key];
    const known = p.kind === 'def' ? p.base : oldProfile[key];
    if (typeof known === 'string' && known !== '') profile[key] = known;
    else delete profile[key];
    if (exported !== profile[key]) notes.push(`register the exported ${role}-hand pose as '${String(exported)}' (world.grip.registerFingerPose) and set GripProfile.${key} to it`);
  }
  return notes;
}

/** The scene file `sceneText` with the document written in: the object's surfaces replaced
 * by the document's, the fragment merged, the holder holding the object. */
export function sceneWithDoc(sceneText: string, d: GripDoc, frag: SceneFragment): string {
  const doc = JSON.parse(sceneText) as { description?: string; entities?: FileEntity[] };
  const ents = (doc.entities ??= []);
  const object = d.object;
  for (let i = ents.length - 1; i >= 0; i--) {
    const c = ents[i].components;
    if (c?.GripSurface && (c.Transform as { parent?: unknown } | undefined)?.parent === object) ents.splice(i, 1);
  }
  for (const f of frag.entities) {
    const at = ents.find((e) => e.name === f.name);
    if (at) at.components = { ...(at.components ?? {}), ...(f.components as Record<string, Record<string, unknown>>) };
    else ents.push(f as { name: string; components: Record<string, Record<string, unknown>> });
  }
  const original = JSON.parse(sceneText) as typeof doc;
  const oldProfile = original.entities?.find((e) => e.name === object)?.components?.GripProfile ?? {};
  const profile = ents.find((e) => e.name === object)?.components?.GripProfile;
  const notes = profile ? keepKnownPoses(d, profile, oldProfile) : [];
  if (notes.length > 0) doc.description = `${doc.description ?? ''} Grip editor: ${notes.join('; ')}.`.trim();
  const holder = ents.find((e) => e.name === d.holder);
  if (holder) {
    holder.components ??= {};
    holder.components.GripHolder = { ...(holder.components.GripHolder ?? {}), held: object, placement: 'Object', mainHand: d.mainHand };
  }
  return JSON.stringify(doc, null, 2);
}

/** A cylinder across the main palm sized to the hand (`indexLength`: the index finger's
 * length), named surfaceN after the document's; null without a main anchor. */
export function surfaceAcrossPalm(d: GripDoc, indexLength: number): SurfaceDoc | null {
  const anchor = d.anchors.main;
  if (!anchor) return null;
  const radius = round(indexLength * 0.22, 4);
  const q = new THREE.Quaternion(...anchor.rotation);
  // The palm frame: +Y out of the palm, +Z along the fingers. The bar lies across the palm
  // (the palm's X axis) on its inside, a little toward the fingers.
  const offset = new THREE.Vector3(0, radius + 0.01, indexLength * 0.25).applyQuaternion(q);
  const p = new THREE.Vector3(...anchor.position).add(offset);
  let n = 1;
  while (d.surfaces.some((s) => s.name === `surface${n}`)) n++;
  return {
    name: `surface${n}`,
    position: [round(p.x), round(p.y), round(p.z)],
    rotation: [...anchor.rotation],
    data: { shape: 'Cylinder', direction: 'X', center: [0, 0, 0], radius, height: round(indexLength * 1.3, 4), size: [0.05, 0.05, 0.05] },
  };
}
