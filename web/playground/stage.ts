/** The three.js stage: renderer (in #view), scene, lights, the floor and the camera. Frames are
 * drawn on demand: after a step, a camera move, a gizmo hover or drag, a resize (invalidate()).
 *
 * The look is a studio one, so dark props (a gunmetal rifle) and light bodies both read: a
 * mid-grey background, a sky/ground hemisphere light, a warm key light that casts shadows (a
 * PCF shadow map on bodies, props and walls, caught on the floor by a ShadowMaterial plane)
 * and a cool rim light from behind that outlines silhouettes against the background. */
import * as THREE from 'three';
import { Floor } from './floor.js';
import { el } from './page.js';

/** The page's background: light enough for a near-black prop to stand out (issue 34). */
export const BACKGROUND = 0x5b6573;

/** Direction from the orbit target to the key light (before normalising). */
const KEY_FROM = new THREE.Vector3(2.2, 4.5, 3);

export class Stage {
  readonly renderer = new THREE.WebGLRenderer({ antialias: true });
  readonly three = new THREE.Scene();
  /** The floor (y = 0) follows the camera target, so a walking character never leaves it. */
  readonly floor: Floor;
  readonly camera: THREE.PerspectiveCamera;
  /** The key light: its shadow camera is kept around the framed subject (setShadowRange). */
  readonly sun: THREE.DirectionalLight;
  /** Catches the key light's shadows at y = 0 (the floor itself is an unlit grid shader). */
  private readonly shadowCatcher: THREE.Mesh<THREE.PlaneGeometry, THREE.ShadowMaterial>;
  /** Runs before every frame is drawn (walls between the camera and the subject fade). */
  readonly beforeRender: (() => void)[] = [];
  private dirty = true;
  /** Frames drawn and the time spent drawing them (ms), for the HUD's frame-time figure. */
  frames = 0;
  drawMs = 0;

  constructor() {
    const renderer = this.renderer;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setSize(window.innerWidth, window.innerHeight);
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFSoftShadowMap;
    el<HTMLDivElement>('view').appendChild(renderer.domElement);

    const three = this.three;
    three.background = new THREE.Color(BACKGROUND);
    three.add(new THREE.HemisphereLight(0xe8eeff, 0x4a4238, 1.7));
    const sun = (this.sun = new THREE.DirectionalLight(0xfff1e0, 2.4));
    sun.castShadow = true;
    sun.shadow.mapSize.set(2048, 2048);
    sun.shadow.bias = -0.0004;
    sun.shadow.normalBias = 0.02;
    three.add(sun, sun.target);
    const rim = new THREE.DirectionalLight(0xb8ccff, 1.3);
    rim.position.set(-3, 2.5, -3.5);
    three.add(rim);
    this.floor = new Floor({ background: BACKGROUND });
    three.add(this.floor.object);
    const catcher = new THREE.Mesh(new THREE.PlaneGeometry(1, 1).rotateX(-Math.PI / 2), new THREE.ShadowMaterial({ color: 0x10141a, opacity: 0.38, depthWrite: false }));
    catcher.name = 'shadow-catcher';
    catcher.receiveShadow = true;
    catcher.frustumCulled = false;
    this.shadowCatcher = catcher;
    three.add(catcher);
    this.setShadowRange(4);
    this.camera = new THREE.PerspectiveCamera(40, window.innerWidth / window.innerHeight, 0.01, 200);
  }

  /** The key light's shadow covers a square of `half` metres either side of the orbit target
   * (the framed subject's size): a texel stays a few millimetres on a close-up. */
  setShadowRange(half: number): void {
    const cam = this.sun.shadow.camera;
    cam.left = cam.bottom = -half;
    cam.right = cam.top = half;
    cam.near = 0.1;
    cam.far = KEY_FROM.length() * Math.max(half, 2) * 2 + 10;
    cam.updateProjectionMatrix();
    this.shadowCatcher.scale.set(half * 2.5, 1, half * 2.5);
    this.sun.shadow.mapSize.set(half > 8 ? 2048 : 1024, half > 8 ? 2048 : 1024);
    this.sun.shadow.map?.dispose();
    this.sun.shadow.map = null;
  }

  /** The next frame draws. */
  readonly invalidate = (): void => {
    this.dirty = true;
  };

  /** Draws now: the floor, the shadow catcher and the key light follow the orbit target. */
  render(target: THREE.Vector3): void {
    const t0 = performance.now();
    for (const f of this.beforeRender) f();
    this.floor.follow(target);
    this.shadowCatcher.position.set(target.x, 0.0005, target.z);
    const reach = Math.max(this.sun.shadow.camera.right, 2);
    this.sun.position.copy(target).addScaledVector(KEY_FROM, reach / 2);
    this.sun.target.position.copy(target);
    this.renderer.render(this.three, this.camera);
    this.frames++;
    this.drawMs += performance.now() - t0;
  }

  /** Draws if something changed since the last frame. */
  renderIfDirty(target: THREE.Vector3): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.render(target);
  }
}
