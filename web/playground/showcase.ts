/** Mask renders for the showcase test (limber.showcase()): how much of the frame the
 * characters, the floor and held props cover, and whether the floor is under each character's feet. */
import * as THREE from 'three';
import { Rig, type Entity } from '../bridge/browser.js';
import { jointWorldPosition } from '../three/index.js';
import type { ShowcaseReport } from './api.js';
import type { Loaded } from './scene-load.js';
import type { SceneViews } from './scene-views.js';
import type { Stage } from './stage.js';

interface Mask {
  w: number;
  h: number;
  /** RGBA, bottom row first. */
  px: Uint8Array;
  /** Share of the pixels covered (white). */
  share: number;
}

const maskMaterial = new THREE.MeshBasicMaterial({ color: 0xffffff, side: THREE.DoubleSide });

/** Renders only `shown` (top-level scene objects) in white on black. */
function mask({ renderer, three, camera }: Stage, shown: readonly THREE.Object3D[]): Mask {
  const size = renderer.getDrawingBufferSize(new THREE.Vector2());
  const w = size.x, h = size.y;
  const target = new THREE.WebGLRenderTarget(w, h);
  const visible = three.children.map((c) => c.visible);
  const bg = three.background;
  three.children.forEach((c) => (c.visible = shown.includes(c)));
  three.background = new THREE.Color(0x000000);
  three.overrideMaterial = maskMaterial;
  renderer.setRenderTarget(target);
  renderer.render(three, camera);
  const px = new Uint8Array(w * h * 4);
  renderer.readRenderTargetPixels(target, 0, 0, w, h, px);
  renderer.setRenderTarget(null);
  three.overrideMaterial = null;
  three.background = bg;
  three.children.forEach((c, i) => (c.visible = visible[i]));
  target.dispose();
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] > 127) n++;
  return { w, h, px, share: n / (w * h) };
}

/** A character's lowest foot or toe joint, its viewport position and whether the floor mask
 * covers the pixels 4, 12 and 30 px below it. */
function footOf({ world, label }: Loaded, stage: Stage, ground: Mask, e: Entity): ShowcaseReport['feet'][number] {
  const rect = stage.renderer.domElement.getBoundingClientRect();
  const scale = ground.w / rect.width;
  const { names } = world.rig.skeleton(world.get(e, Rig).asset);
  let joint = '';
  let low = new THREE.Vector3(0, Infinity, 0);
  for (const n of names) {
    if (!/Foot$|Toe/.test(n)) continue;
    const p = jointWorldPosition(world, e, n);
    if (p.y < low.y) {
      low = p;
      joint = n;
    }
  }
  const v = low.clone().project(stage.camera);
  const screen: [number, number] = [((v.x + 1) / 2) * rect.width, ((1 - v.y) / 2) * rect.height];
  const floorBelow = [4, 12, 30].map((dy) => {
    const x = Math.round(screen[0] * scale), y = Math.round((screen[1] + dy) * scale);
    if (x < 0 || x >= ground.w || y < 0 || y >= ground.h) return false;
    return ground.px[((ground.h - 1 - y) * ground.w + x) * 4] > 127;
  });
  return { rig: label(e), joint, y: low.y, screen, floorBelow };
}

export function showcase(loaded: Loaded, sv: SceneViews, stage: Stage): ShowcaseReport {
  for (const v of sv.views) v.update();
  stage.three.updateMatrixWorld(true);
  const body = mask(stage, sv.bodies.map((b) => b.object));
  const ground = mask(stage, [stage.floor.object]);
  const props = mask(stage, [sv.gripView.object]);
  const feet = loaded.rigs.map((e) => footOf(loaded, stage, ground, e));
  return { width: body.w, height: body.h, character: body.share, floor: ground.share, props: props.share, feet };
}
