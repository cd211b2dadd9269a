/** The three.js stage: renderer (in #view), scene, lights, the floor and the camera. Frames are
 * drawn on demand: after a step, a camera move, a gizmo hover or drag, a resize (invalidate()). */
import * as THREE from 'three';
import { Floor } from './floor.js';
import { el } from './page.js';

export class Stage {
  readonly renderer = new THREE.WebGLRenderer({ antialias: true });
  readonly three = new THREE.Scene();
  /** The floor (y = 0) follows the camera target, so a walking character never leaves it. */
  readonly floor: Floor;
  readonly camera: THREE.PerspectiveCamera;
  private dirty = true;

  constructor() {
    const renderer = this.renderer;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(window.innerWidth, window.innerHeight);
    el<HTMLDivElement>('view').appendChild(renderer.domElement);

    const background = 0x1b1e23;
    const three = this.three;
    three.background = new THREE.Color(background);
    three.add(new THREE.HemisphereLight(0xdfe8ff, 0x2a2420, 1.9));
    const sun = new THREE.DirectionalLight(0xfff4e6, 2.2);
    sun.position.set(2, 4, 3);
    three.add(sun);
    const rim = new THREE.DirectionalLight(0x9db8ff, 0.9);
    rim.position.set(-3, 2.5, -3);
    three.add(rim);
    this.floor = new Floor({ background });
    three.add(this.floor.object);
    this.camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, 0.01, 200);
  }

  /** The next frame draws. */
  readonly invalidate = (): void => {
    this.dirty = true;
  };

  /** Draws now, the floor under the orbit target. */
  render(target: THREE.Vector3): void {
    this.floor.follow(target);
    this.renderer.render(this.three, this.camera);
  }

  /** Draws if something changed since the last frame. */
  renderIfDirty(target: THREE.Vector3): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.render(target);
  }
}
