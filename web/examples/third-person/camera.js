// The third-person camera: it orbits a point above the player (drag with the mouse to turn it,
// the wheel to zoom), follows the player smoothly, and is pulled in front of any wall between
// it and the player (a Limber raycast), so the character stays in view.
import * as THREE from 'three';

const TARGET_HEIGHT = 1.3;
/** Over the right shoulder: the point looked at is this far to the camera's right of the
 * player, so the rifle (held in front of the chest) shows beside the body, not behind it. */
const SHOULDER = 0.55;
const MIN_PITCH = (4 * Math.PI) / 180;
const MAX_PITCH = (70 * Math.PI) / 180;
const MIN_DISTANCE = 1.6;
const MAX_DISTANCE = 12;
/** Metres kept between the camera and a wall it was pulled in front of. */
const WALL_MARGIN = 0.25;

export class FollowCamera {
  /**
   * @param {THREE.PerspectiveCamera} camera
   * @param {import('limber').World} world for the raycast against the level
   */
  constructor(camera, world, { yaw = 0, pitch = 0.42, distance = 4.6 } = {}) {
    this.camera = camera;
    this.world = world;
    /** Horizontal direction the camera looks along (radians, 0 = +Z). */
    this.yaw = yaw;
    /** Downward tilt (radians). */
    this.pitch = pitch;
    this.distance = distance;
    /** The smoothed point above the player's feet, and the point looked at (beside it). */
    this.pivot = null;
    this.target = null;
    this.applied = distance;
  }

  /** Mouse drag by (dx, dy) pixels. */
  orbit(dx, dy) {
    this.yaw -= dx * 0.006;
    this.pitch = Math.min(MAX_PITCH, Math.max(MIN_PITCH, this.pitch + dy * 0.005));
  }

  /** Wheel: out for positive deltaY. */
  zoom(deltaY) {
    this.distance = Math.min(MAX_DISTANCE, Math.max(MIN_DISTANCE, this.distance * Math.pow(1.0015, deltaY)));
  }

  /** One fixed step of following `position` (the player's feet). */
  follow(position, dt) {
    const goal = new THREE.Vector3(position[0], position[1] + TARGET_HEIGHT, position[2]);
    if (!this.pivot) this.pivot = goal;
    else this.pivot.lerp(goal, 1 - Math.exp(-dt * 12));
  }

  back(pitch) {
    const c = Math.cos(pitch);
    return new THREE.Vector3(-Math.sin(this.yaw) * c, Math.sin(pitch), -Math.cos(this.yaw) * c);
  }

  /** How far back the camera can be at this pitch before a wall (or the crate). */
  clearance(pitch) {
    const hit = this.world.collide.raycast(this.target.toArray(), this.back(pitch).toArray(), this.distance + WALL_MARGIN);
    return hit ? Math.max(0.5, hit.distance - WALL_MARGIN) : this.distance;
  }

  /** Places the three.js camera (after follow; once per drawn frame). */
  apply() {
    if (!this.pivot) return;
    // The shoulder offset stops short of a wall on the right (a corridor).
    const right = new THREE.Vector3(-Math.cos(this.yaw), 0, Math.sin(this.yaw));
    const side = this.world.collide.raycast(this.pivot.toArray(), right.toArray(), SHOULDER + WALL_MARGIN);
    this.target = this.pivot.clone().addScaledVector(right, side ? Math.max(0, side.distance - WALL_MARGIN) : SHOULDER);
    // A wall between the player and the camera: look over it from higher up if that clears it
    // (a corridor seen from the side), else come in front of it.
    let pitch = this.pitch;
    let wanted = this.clearance(pitch);
    for (let p = pitch; wanted < this.distance * 0.6 && p < MAX_PITCH; ) {
      p = Math.min(MAX_PITCH, p + (5 * Math.PI) / 180);
      const d = this.clearance(p);
      if (d > wanted) [pitch, wanted] = [p, d];
    }
    this.applied = wanted;
    this.appliedPitch = pitch;
    this.camera.position.copy(this.target).addScaledVector(this.back(pitch), wanted);
    this.camera.lookAt(this.target);
    this.camera.updateMatrixWorld();
  }
}
