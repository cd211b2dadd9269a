/** A rig entity drawn as a body: the skinned mesh of a loaded glTF (e.g. the .glb the rig
 * came from), or, for a rig without a mesh (the builtin humanoid), a generated body of
 * capsules carried by three.js bones. Each update() copies the core's local pose (after
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

/** Capsule from the origin to `to` (parent joint frame), as a mesh carried by the parent bone. */
function segment(to: THREE.Vector3, radius: number, material: THREE.Material): THREE.Mesh {
  const length = to.length();
  const g = new THREE.CapsuleGeometry(radius, Math.max(length - radius * 0.6, 0.001), 4, 12);
  g.translate(0, length / 2, 0);
  const mesh = new THREE.Mesh(g, material);
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), to.clone().normalize());
  return mesh;
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

  /** Bones for every joint (the rig's current local pose as their rest) and a capsule for
   * every parent → child segment, carried by the parent's bone. */
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
    names.forEach((name, j) => {
      const p = parents[j];
      if (p < 0) {
        root.add(bones[j]);
        return;
      }
      bones[p].add(bones[j]);
      const to = bones[j].position.clone();
      const length = to.length();
      if (length < 1e-4) return;
      const parent = names[p];
      // The head: one rounded block from the head joint to its end site.
      if (/Head$/.test(parent)) {
        const head = new THREE.Mesh(new THREE.SphereGeometry(1, 20, 14), material);
        head.scale.set(0.085, Math.max(length * 0.62, 0.09), 0.1);
        head.position.copy(to).multiplyScalar(0.5);
        this.add(bones[p], head);
        return;
      }
      const mesh = segment(to, segmentRadius(parent, name, length), material);
      // The torso is wider than deep.
      if (/Spine|Hips/.test(parent) && /Spine|Neck/.test(name)) mesh.scale.set(1.25, 1, 0.78);
      this.add(bones[p], mesh);
    });
    // Hips block and hands (palms).
    names.forEach((name, j) => {
      if (/(^|[:_|])Hips$/.test(name)) {
        const hips = new THREE.Mesh(new THREE.SphereGeometry(1, 20, 14), material);
        hips.scale.set(0.16, 0.11, 0.11);
        hips.position.set(0, -0.02, 0);
        this.add(bones[j], hips);
      } else if (/Hand$/.test(name)) {
        const fingers = bones[j].children.find((c) => (c as THREE.Bone).isBone && /Middle1$/.test(c.name));
        const to = fingers ? fingers.position.clone() : new THREE.Vector3(0.08 * Math.sign(bones[j].position.x || 1), 0, 0);
        const palm = segment(to.multiplyScalar(0.9), 0.03, material);
        palm.scale.set(0.6, 1, 1.25);
        this.add(bones[j], palm);
      }
    });
    return root;
  }

  private add(bone: THREE.Object3D, mesh: THREE.Mesh): void {
    mesh.name = `body:${bone.name}`;
    this.owned.push(mesh.geometry);
    this.meshes.push(mesh);
    bone.add(mesh);
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
