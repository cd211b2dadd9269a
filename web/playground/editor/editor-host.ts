/** What the playground gives the grip editor and its parts (the panel, the anchor gizmo, the
 * finger handles, the camera moves), and what the editor reports to tests. */
import type * as THREE from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { Entity, FingerName, HandSide, Scene, World } from '../../bridge/browser.js';
import type { Role } from './grip-doc.js';

/** What the playground gives the editor. */
export interface EditorHost {
  world: World;
  scene: Scene;
  sceneName: string;
  sceneText: string;
  three: THREE.Scene;
  camera: THREE.PerspectiveCamera;
  renderer: THREE.WebGLRenderer;
  gizmo: TransformControls;
  orbit: OrbitControls;
  nameOf: Map<Entity, string>;
  /** Entities the views draw (scene entities; the editor adds the surfaces it spawns). */
  drawn: Entity[];
  /** Steps the world once without the scene timeline, then refreshes the views and HUD. */
  step(): void;
  /** Refreshes the views and HUD (after a restore). */
  refresh(): void;
  setPaused(paused: boolean): void;
  paused(): boolean;
  /** Detaches the playground's own gizmo selection (targets, held objects). */
  deselect(): void;
  invalidate(): void;
}

/** What a test reads: the edited hand's contacts and pose, the distances. */
export interface EditorStatus {
  previewing: boolean;
  mainHand: HandSide | null;
  mainDistance: number;
  supportDistance: number;
  contacts: Record<Role, FingerName[]>;
  editRole: Role;
  canUndo: boolean;
  canRedo: boolean;
}
