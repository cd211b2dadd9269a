/** What the grip editor edits on a hand: the hand being edited (main or support, #ed-role),
 * its finger bends, fans and thumb, starting again from a named pose, a new grip surface
 * across the palm, and the camera turned onto it. Every change goes through the editor's
 * `edit` (one undo step) or `amend` (inside a drag that pushed its undo step as it began). */
import * as THREE from 'three';
import type { FingerName, HandSide } from '../../bridge/browser.js';
import { focusOn } from './editor-camera.js';
import type { EditorHost } from './editor-host.js';
import { bendIn, setBendIn, setFanIn, setThumbIn, surfaceAcrossPalm, type Role } from './grip-doc.js';
import type { GripEditor } from './grip-editor.js';

/** The index finger's length (metres) taken when the rig does not say. */
const DEFAULT_INDEX_LENGTH = 0.08;

export class HandEdits {
  private edited: Role = 'main';

  constructor(
    private readonly ed: GripEditor,
    private readonly host: EditorHost,
  ) {}

  /** The hand edited: main or support. */
  get role(): Role {
    return this.edited;
  }

  setRole(role: Role): void {
    this.edited = role;
    this.ed.refreshPanel();
  }

  /** The edited hand's side (from the document's main hand). */
  side(): HandSide {
    const main = this.ed.current?.mainHand ?? 'Right';
    return this.edited === 'main' ? main : main === 'Right' ? 'Left' : 'Right';
  }

  /** Degrees of bend of a finger joint (0..2) in the edited hand's pose, or null (captured pose). */
  bend(finger: FingerName, joint: number): number | null {
    const p = this.ed.current?.poses[this.edited];
    return p ? bendIn(p, finger, joint) : null;
  }

  /** A bend from a handle drag (whose undo step was pushed as it began). */
  setBend(finger: FingerName, joint: number, deg: number): void {
    this.ed.amend((d) => setBendIn(d.poses[this.edited], finger, joint, deg));
  }

  /** A bend typed in: one undo step. */
  setBendField(finger: FingerName, joint: number, deg: number): void {
    this.ed.edit((d) => void setBendIn(d.poses[this.edited], finger, joint, deg));
  }

  setFan(finger: FingerName, deg: number): void {
    this.ed.edit((d) => setFanIn(d.poses[this.edited], finger, deg));
  }

  setThumb(key: 'opposition' | 'gap', x: number): void {
    this.ed.edit((d) => setThumbIn(d.poses[this.edited], key, x));
  }

  /** Back to the named pose the edited hand started from (a captured one: the role's default). */
  resetPose(): void {
    const p = this.ed.current?.poses[this.edited];
    this.startFrom(p?.kind === 'def' ? p.base : this.edited === 'main' ? 'pistol' : 'support');
  }

  startFrom(name: string): void {
    this.ed.edit((d) => {
      d.poses[this.edited] = { kind: 'def', base: name, def: this.host.world.grip.poseByJoint(name) };
    });
  }

  /** A cylinder across the main palm, sized to the hand (index length). */
  newSurface(): void {
    const d = this.ed.current;
    if (!d?.anchors.main) return;
    const side = d.mainHand === 'Right' ? 'right' : 'left';
    const surface = surfaceAcrossPalm(d, this.host.world.grip.status(this.host.scene.entity(d.holder))[side].indexLength || DEFAULT_INDEX_LENGTH);
    if (surface) this.ed.edit((dd) => void dd.surfaces.push(surface));
  }

  /** Turns the camera onto the edited hand's palm, 0.5 m away, keeping the viewing direction. */
  focusHand(): void {
    const d = this.ed.current;
    if (!d || !this.ed.previewing) return;
    const anchor = this.host.world.grip.anchor(this.host.scene.entity(d.holder), this.edited);
    if (!anchor) return;
    focusOn(this.host.camera, this.host.orbit, new THREE.Vector3(...anchor.t), 0.5);
    this.host.invalidate();
  }
}
