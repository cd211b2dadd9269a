/** A rig entity drawn as a body: the skinned mesh of a loaded glTF (e.g. the .glb the rig
 * came from), or, for a rig without a mesh (the builtin humanoid), a generated body: capsules
 * skinned to three.js bones, blended across the joints. Each update() copies the core's local pose (after
 * animation, IK and grip) into the bones; the group carries the rig root's world transform,
 * so the bones' world matrices equal the core's model-space pose placed in the world. */
import * as THREE from 'three';
import type { Entity, World } from '../bridge/api.js';
import { Rig } from '../bridge/api.js';
import { ExternalAnimation, type ExternalAnimationOptions } from './external-animation.js';
import { applyJointTransform, type WorldView } from './pose.js';

export interface RigMeshViewOptions {
  /** A glTF scene (GLTFLoader's `gltf.scene`) whose bones match the rig's joints by name (or
   * through `stripPrefix`/`nameMap`), else by the skin order of its skinned mesh (unnamed
   * joints; see ExternalAnimation). Default: none, a body is generated from the skeleton. */
  source?: THREE.Object3D;
  /** Passed to the bone matching (see ExternalAnimation); syncRoot is always off. */
  stripPrefix?: ExternalAnimationOptions['stripPrefix'];
  nameMap?: ExternalAnimationOptions['nameMap'];
  /** Colour of the generated body. Default a light grey. */
  color?: THREE.ColorRepresentation;
}

/** Radius (metres) of a generated limb segment from joint `parent` to joint `child`. */
function segmentRadius(parent: string, child: string, length: number): number {
  const p = parent.replace(/^.*[:_|]/, ''), c = child.replace(/^.*[:_|]/, '');
  const both = `${p} ${c}`;
  if (/Thumb|Index|Middle|Ring|Pinky/.test(c)) return 0.0095;
  if (/Hand$/.test(p)) return 0.012;
  if (/^Spine|^Hips/.test(p) && /^Spine|^Neck/.test(c)) return 0.115;
  if (/Neck/.test(p)) return 0.05;
  if (/Spine/.test(p) && /Shoulder/.test(c)) return 0.06;
  if (/Shoulder/.test(p)) return 0.06;
  if (/Arm$/.test(p) && !/Fore/.test(p)) return 0.047;
  if (/ForeArm/.test(p)) return 0.038;
  if (/Hips/.test(p) && /UpLeg|Thigh/.test(c)) return 0.09;
  if (/UpLeg|Thigh/.test(p)) return 0.07;
  if (/Leg|Calf|Shin/.test(p)) return 0.052;
  if (/Foot/.test(p)) return 0.042;
  if (/Toe/.test(both)) return 0.034;
  return THREE.MathUtils.clamp(length * 0.2, 0.01, 0.06);
}

/** Capsule from the origin to `to` (parent joint frame): its geometry in that frame, widened
 * by `scale` across the segment (x, z of the capsule's own frame). */
function segmentGeometry(to: THREE.Vector3, radius: number, scale?: THREE.Vector3): THREE.BufferGeometry {
  const length = to.length();
  const g = new THREE.CapsuleGeometry(radius, Math.max(length - radius * 0.6, 0.001), 8, 20);
  g.translate(0, length / 2, 0);
  if (scale) g.scale(scale.x, scale.y, scale.z);
  g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), to.clone().normalize()));
  return g;
}

/** One piece of the generated body: its geometry in its bone's frame (bone -1: model space)
 * and the skin weights of a vertex there, up to three (bone, weight) pairs. */
interface BodyPart {
  geometry: THREE.BufferGeometry;
  bone: number;
  weigh(p: THREE.Vector3): [number, number, number, number, number, number];
}

/** A limb segment's weights: its bone, blended toward `child` past the segment's far end and
 * toward `parent` before its start, so elbows and knees bend without seams. */
function segmentWeights(bone: number, to: THREE.Vector3, child: number, parent: number): BodyPart['weigh'] {
  const len2 = to.lengthSq();
  return (p) => {
    const t = len2 > 0 ? p.dot(to) / len2 : 0;
    const toChild = child >= 0 ? 0.5 * THREE.MathUtils.smoothstep(t, 0.7, 1.1) : 0;
    const toParent = parent >= 0 ? 0.5 * THREE.MathUtils.smoothstep(-t, -0.3, 0.1) : 0;
    return [bone, 1 - toChild - toParent, Math.max(child, 0), toChild, Math.max(parent, 0), toParent];
  };
}

/** Weights along a chain of joints (model space): linear between the middles of the
 * segments each bone carries, so a torso drawn as one capsule bends with every spine bone. */
function chainWeights(bones: readonly number[], points: readonly THREE.Vector3[], from: THREE.Vector3, to: THREE.Vector3): BodyPart['weigh'] {
  const axis = to.clone().sub(from);
  const len2 = axis.lengthSq();
  const at = (p: THREE.Vector3): number => p.clone().sub(from).dot(axis) / len2;
  const mids = bones.map((_, k) => (at(points[k]!) + at(points[Math.min(k + 1, points.length - 1)]!)) / 2);
  return (p) => {
    const t = at(p);
    let k = 0;
    while (k + 1 < mids.length && t >= mids[k + 1]!) k++;
    if (k + 1 >= mids.length || t <= mids[0]!) return [bones[k]!, 1, 0, 0, 0, 0];
    const f = (t - mids[k]!) / (mids[k + 1]! - mids[k]!);
    return [bones[k]!, 1 - f, bones[k + 1]!, f, 0, 0];
  };
}

/** The parts merged into one skinned geometry, in the bind (model) space of `bones`. */
function skinnedGeometry(parts: readonly BodyPart[], bones: readonly THREE.Bone[]): THREE.BufferGeometry {
  const pos: number[] = [], nrm: number[] = [], idx: number[] = [], skinIndex: number[] = [], skinWeight: number[] = [];
  const p = new THREE.Vector3(), n = new THREE.Vector3(), normalMatrix = new THREE.Matrix3();
  for (const part of parts) {
    const g = part.geometry;
    const base = pos.length / 3;
    const gp = g.getAttribute('position'), gn = g.getAttribute('normal');
    const m = part.bone >= 0 ? bones[part.bone]!.matrixWorld : new THREE.Matrix4();
    normalMatrix.getNormalMatrix(m);
    for (let i = 0; i < gp.count; i++) {
      p.fromBufferAttribute(gp, i);
      const [b0, w0, b1, w1, b2, w2] = part.weigh(p);
      p.applyMatrix4(m);
      n.fromBufferAttribute(gn, i).applyMatrix3(normalMatrix).normalize();
      pos.push(p.x, p.y, p.z);
      nrm.push(n.x, n.y, n.z);
      skinIndex.push(b0, b1, b2, 0);
      skinWeight.push(w0, w1, w2, 0);
    }
    const gi = g.index;
    if (gi) for (let i = 0; i < gi.count; i++) idx.push(base + gi.getX(i));
    else for (let i = 0; i < gp.count; i++) idx.push(base + i);
    part.geometry.dispose();
  }
  const out = new THREE.BufferGeometry();
  out.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  out.setAttribute('normal', new THREE.Float32BufferAttribute(nrm, 3));
  out.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  out.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  out.setIndex(idx);
  return out;
}

export class RigMeshView implements WorldView {
  /** Add this to the scene. Its matrix is the rig root's world transform. */
  readonly object = new THREE.Group();
  /** The meshes that draw the body (skinned or rigid parts). */
  readonly meshes: THREE.Mesh[] = [];
  /** The bones written each update(), matched to rig joints. */
  readonly animation: ExternalAnimation;
  /** True when the body is generated (no source mesh). */
  readonly generated: boolean;
  private readonly owned: (THREE.BufferGeometry | THREE.Material)[] = [];
  private readonly tmp = new THREE.Vector3();

  constructor(
    readonly world: World,
    readonly entity: Entity,
    options: RigMeshViewOptions = {},
  ) {
    this.object.name = `body:${entity}`;
    this.object.matrixAutoUpdate = false;
    this.generated = !options.source;
    let source: THREE.Object3D;
    if (options.source) {
      source = options.source;
      source.traverse((o) => {
        const m = o as THREE.Mesh;
        if (!m.isMesh) return;
        // Bones move far from the bind pose (root motion, IK): never cull on stale bounds.
        m.frustumCulled = false;
        this.meshes.push(m);
      });
    } else {
      source = this.buildBody(options.color ?? 0xb4bac4);
    }
    this.object.add(source);
    this.animation = new ExternalAnimation(world, entity, source, { stripPrefix: options.stripPrefix, nameMap: options.nameMap, syncRoot: false });
    this.update();
  }

  /** Bones for every joint (the rig's current local pose as their bind pose) and one skinned
   * mesh: a capsule per parent → child segment whose ends blend into the neighbouring bones, an
   * ellipsoid head, a rounded pelvis and palms. One draw call, no seams at the joints. */
  private buildBody(color: THREE.ColorRepresentation): THREE.Object3D {
    const { names, parents } = this.world.rig.skeleton(this.world.get(this.entity, Rig).asset);
    const local = this.world.localPose(this.entity);
    const material = new THREE.MeshStandardMaterial({ color, roughness: 0.62, metalness: 0.05 });
    this.owned.push(material);
    const bones = names.map((name, j) => {
      const b = new THREE.Bone();
      b.name = name;
      const x = local[j];
      b.position.set(x.t[0], x.t[1], x.t[2]);
      b.quaternion.set(x.r[0], x.r[1], x.r[2], x.r[3]);
      return b;
    });
    const root = new THREE.Group();
    root.name = 'generated-body';
    names.forEach((_, j) => (parents[j] < 0 ? root.add(bones[j]) : bones[parents[j]].add(bones[j])));
    root.updateMatrixWorld(true);
    const rigid = (bone: number): BodyPart['weigh'] => () => [bone, 1, 0, 0, 0, 0];
    const parts: BodyPart[] = [];
    const torso = this.torso(names, parents, bones);
    if (torso) parts.push(torso);
    names.forEach((name, j) => {
      const p = parents[j];
      if (p < 0) return;
      const to = bones[j].position.clone();
      const length = to.length();
      if (length < 1e-4) return;
      const parent = names[p];
      // The head: an ellipsoid from the head joint to its end site.
      if (/Head$/.test(parent)) {
        const head = new THREE.SphereGeometry(1, 28, 20);
        head.scale(0.085, Math.max(length * 0.62, 0.09), 0.1);
        head.translate(to.x * 0.5, to.y * 0.5, to.z * 0.5);
        parts.push({ geometry: head, bone: p, weigh: rigid(p) });
        return;
      }
      // The torso is one capsule (above); the pelvis covers the hips-to-thigh offsets.
      if (torso && (/Spine|Hips/.test(parent) && /Spine|Neck/.test(name))) return;
      if (/Hips$/.test(parent) && /UpLeg|Thigh/.test(name)) return;
      const g = segmentGeometry(to, segmentRadius(parent, name, length));
      // blend into the child joint's bone where that bone carries the next segment
      const child = bones[j].children.some((c) => (c as THREE.Bone).isBone) && !/Head$/.test(name) ? j : -1;
      const grand = parents[p] >= 0 && !/Hips$|Spine|Neck/.test(names[parents[p]]) ? parents[p] : -1;
      parts.push({ geometry: g, bone: p, weigh: segmentWeights(p, to, child, grand) });
    });
    // Pelvis and palms.
    names.forEach((name, j) => {
      if (/(^|[:_|])Hips$/.test(name)) {
        const hips = new THREE.SphereGeometry(1, 28, 18);
        hips.scale(0.165, 0.12, 0.11);
        hips.translate(0, -0.03, 0);
        parts.push({ geometry: hips, bone: j, weigh: rigid(j) });
      } else if (/Hand$/.test(name)) {
        const fingers = bones[j].children.find((c) => (c as THREE.Bone).isBone && /Middle1$/.test(c.name));
        const to = fingers ? fingers.position.clone() : new THREE.Vector3(0.08 * Math.sign(bones[j].position.x || 1), 0, 0);
        const palm = segmentGeometry(to.multiplyScalar(0.9), 0.03, new THREE.Vector3(0.6, 1, 1.25));
        parts.push({ geometry: palm, bone: j, weigh: rigid(j) });
      }
    });
    const mesh = new THREE.SkinnedMesh(skinnedGeometry(parts, bones), material);
    mesh.name = 'body:skin';
    // Bones move far from the bind pose (root motion, IK): never cull on stale bounds.
    mesh.frustumCulled = false;
    root.add(mesh);
    mesh.bind(new THREE.Skeleton(bones));
    this.owned.push(mesh.geometry);
    this.meshes.push(mesh);
    return root;
  }

  /** The torso as one capsule (model space) from below the hips to the neck, wider than deep,
   * skinned along the spine chain; null when the rig has no Hips ... Neck chain. */
  private torso(names: readonly string[], parents: readonly number[], bones: readonly THREE.Bone[]): BodyPart | null {
    const neck = names.findIndex((n) => /(^|[:_|])Neck$/.test(n));
    if (neck < 0) return null;
    const chain: number[] = [];
    for (let j = parents[neck]; j >= 0; j = parents[j]) {
      chain.unshift(j);
      if (/Hips$/.test(names[j])) break;
    }
    if (chain.length < 2 || !/Hips$/.test(names[chain[0]])) return null;
    const points = [...chain, neck].map((j) => new THREE.Vector3().setFromMatrixPosition(bones[j].matrixWorld));
    const from = points[0].clone().add(new THREE.Vector3(0, -0.02, 0));
    const to = points[points.length - 1];
    const axis = to.clone().sub(from);
    const radius = 0.115;
    const g = new THREE.CapsuleGeometry(radius, Math.max(axis.length() - radius * 0.8, 0.01), 12, 28);
    g.scale(1.25, 1, 0.8);
    g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.clone().normalize()));
    g.translate((from.x + to.x) / 2, (from.y + to.y) / 2, (from.z + to.z) / 2);
    return { geometry: g, bone: -1, weigh: chainWeights(chain, points, from, to) };
  }

  /** Re-reads the rig root's world transform and the local pose. */
  update(): void {
    applyJointTransform(this.world.worldTransform(this.entity), this.object.matrix);
    this.object.matrixWorldNeedsUpdate = true;
    this.animation.afterStep();
  }

  /** World-space bounds of the rig's joints (as of the last step), grown by `pad` metres. */
  bounds(pad = 0.1, out = new THREE.Box3()): THREE.Box3 {
    out.makeEmpty();
    const m = applyJointTransform(this.world.worldTransform(this.entity), new THREE.Matrix4());
    for (const x of this.world.modelPose(this.entity)) out.expandByPoint(this.tmp.set(x.t[0], x.t[1], x.t[2]).applyMatrix4(m));
    return out.expandByScalar(pad);
  }

  dispose(): void {
    this.object.removeFromParent();
    for (const o of this.owned) o.dispose();
  }
}
