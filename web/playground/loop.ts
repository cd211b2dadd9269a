/** The step loop: fixed 1/60 s steps from an accumulator of frame time (none while paused), a
 * refresh of the views and HUD after steps, and a frame drawn when something changed. */
import type * as THREE from 'three';
import type { Scene } from '../bridge/browser.js';
import { DT, MAX_STEPS_PER_FRAME } from './page.js';
import type { Stage } from './stage.js';

export interface LoopParts {
  scene: Scene;
  stage: Stage;
  /** The orbit target: the floor follows it. */
  target: THREE.Vector3;
  paused: boolean;
  /** Runs after every scene step (panels record, the user's slider value is applied again). */
  afterStep(): void;
  /** After the world stepped: views follow it, the HUD shows it. */
  refresh(): void;
  /** Runs at the start of every frame (the grip editor's animation). */
  tick(now: number): void;
}

export class StepLoop {
  paused: boolean;
  /** Seconds not yet stepped. */
  private acc = 0;
  private last = performance.now();

  constructor(private readonly parts: LoopParts) {
    this.paused = parts.paused;
  }

  /** One scene step (timeline included). */
  sceneStep(): void {
    this.parts.scene.step(DT);
    this.parts.afterStep();
  }

  stepOnce(): void {
    this.sceneStep();
    this.parts.refresh();
  }

  /** Runs n fixed steps now (paused or not), then refreshes. */
  advance(n: number): void {
    for (let i = 0; i < n; i++) this.sceneStep();
    this.parts.refresh();
  }

  /** Pauses or plays; the time not yet stepped is dropped. */
  setPaused(p: boolean): void {
    this.paused = p;
    this.acc = 0;
  }

  /** The first refresh and frame; the page is ready; frames from now on. */
  start(): void {
    this.parts.refresh();
    this.parts.stage.render(this.parts.target);
    document.body.dataset.ready = '1';
    requestAnimationFrame(this.frame);
  }

  private readonly frame = (now: number): void => {
    this.parts.tick(now);
    const elapsed = Math.min(Math.max(0, (now - this.last) / 1000), 0.25);
    this.last = now;
    if (!this.paused) {
      this.acc += elapsed;
      let n = 0;
      while (this.acc >= DT && n < MAX_STEPS_PER_FRAME) {
        this.sceneStep();
        this.acc -= DT;
        n++;
      }
      if (n === MAX_STEPS_PER_FRAME) this.acc = 0; // too slow: drop time rather than spiral
      if (n > 0) this.parts.refresh();
    }
    this.parts.stage.renderIfDirty(this.parts.target);
    requestAnimationFrame(this.frame);
  };
}
