/** The step loop: fixed 1/60 s steps from an accumulator of frame time (none while paused), a
 * refresh of the views and HUD after steps, and a frame drawn when something changed.
 *
 * Simulation and drawing are decoupled: a frame runs every step its elapsed time owes, so the
 * simulation keeps 60 steps per second of simulated time however long a frame takes to draw
 * (under software WebGL a frame can take 50-970 ms while a step takes well under a
 * millisecond). Only two limits drop time, and the HUD says so ("behind: runs at N % of real time"): a frame's
 * elapsed time counts for at most MAX_FRAME_SECONDS (a tab coming back from the background does
 * not replay minutes), and stepping stops for the frame once it has taken half the frame's
 * elapsed time (at least STEP_BUDGET_MS) of wall-clock time, so a scene whose steps cost more
 * than real time cannot spiral: drawing always gets its half. */
import type * as THREE from 'three';
import type { Scene } from '../bridge/browser.js';
import { DT, MAX_FRAME_SECONDS, STEP_BUDGET_MS } from './page.js';
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

/** What the HUD shows of the loop's pace, over the last second or so of playing. */
export interface LoopRate {
  /** Scene steps per second of wall-clock time (60 when the simulation keeps up). */
  stepsPerSecond: number;
  /** Frames drawn per second. */
  framesPerSecond: number;
  /** Mean time to draw a frame, ms. */
  drawMs: number;
  /** Share of the elapsed time dropped instead of stepped (0: keeping up). */
  behind: number;
}

/** Window over which the rate is measured, ms. */
const RATE_WINDOW_MS = 1000;

export class StepLoop {
  paused: boolean;
  /** Seconds not yet stepped. */
  private acc = 0;
  private last = performance.now();
  /** Per frame while playing: wall-clock time, steps run, seconds dropped, frames and draw ms so far. */
  private readonly samples: { t: number; steps: number; dropped: number; elapsed: number; frames: number; drawMs: number }[] = [];
  private stepsRun = 0;

  constructor(private readonly parts: LoopParts) {
    this.paused = parts.paused;
  }

  /** One scene step (timeline included). */
  sceneStep(): void {
    this.parts.scene.step(DT);
    this.parts.afterStep();
    this.stepsRun++;
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
    this.samples.length = 0;
  }

  /** The first refresh and frame; the page is ready; frames from now on. */
  start(): void {
    this.parts.refresh();
    this.parts.stage.render(this.parts.target);
    document.body.dataset.ready = '1';
    requestAnimationFrame(this.frame);
  }

  /** Steps and frames per second over the last second of playing (zeros while paused). */
  rate(): LoopRate {
    const s = this.samples;
    if (this.paused || s.length < 2) return { stepsPerSecond: 0, framesPerSecond: 0, drawMs: 0, behind: 0 };
    const a = s[0]!, b = s[s.length - 1]!;
    const seconds = (b.t - a.t) / 1000;
    const frames = b.frames - a.frames;
    const elapsed = b.elapsed - a.elapsed;
    return {
      stepsPerSecond: seconds > 0 ? (b.steps - a.steps) / seconds : 0,
      framesPerSecond: seconds > 0 ? (s.length - 1) / seconds : 0,
      drawMs: frames > 0 ? (b.drawMs - a.drawMs) / frames : 0,
      behind: elapsed > 0 ? (b.dropped - a.dropped) / elapsed : 0,
    };
  }

  /** Steps owed by `elapsed` seconds, within the wall-clock budget; returns the seconds dropped. */
  private catchUp(elapsed: number, start: number): number {
    const raw = elapsed;
    elapsed = Math.min(elapsed, MAX_FRAME_SECONDS);
    this.acc += elapsed;
    let ran = 0;
    while (this.acc >= DT) {
      if (ran > 0 && performance.now() - start > Math.max(STEP_BUDGET_MS, raw * 500)) break;
      this.sceneStep();
      this.acc -= DT;
      ran++;
    }
    let dropped = raw - elapsed;
    if (this.acc >= DT) {
      // over budget: the rest of this frame's time is dropped, not carried (no spiral)
      dropped += this.acc - (this.acc % DT);
      this.acc %= DT;
    }
    if (ran > 0) this.parts.refresh();
    return dropped;
  }

  private readonly frame = (now: number): void => {
    this.parts.tick(now);
    const elapsed = Math.max(0, (now - this.last) / 1000);
    this.last = now;
    if (!this.paused) {
      const dropped = this.catchUp(elapsed, performance.now());
      const prev = this.samples[this.samples.length - 1];
      const stage = this.parts.stage;
      this.samples.push({ t: now, steps: this.stepsRun, dropped: (prev?.dropped ?? 0) + dropped, elapsed: (prev?.elapsed ?? 0) + elapsed, frames: stage.frames, drawMs: stage.drawMs });
      while (this.samples.length > 2 && now - this.samples[1]!.t >= RATE_WINDOW_MS) this.samples.shift();
    }
    this.parts.stage.renderIfDirty(this.parts.target);
    requestAnimationFrame(this.frame);
  };
}
