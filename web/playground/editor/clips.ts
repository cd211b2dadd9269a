/** The clip under the grip: the holder's clips in the #ed-clip picker (#ed-anim, or
 * #ed-no-clips when its rig has none), their durations, and playing one at the page's clock. */
import { Rig, type Entity, type World } from '../../bridge/browser.js';
import { el } from '../page.js';

/** The longest real-time step a playing clip takes (seconds): a stalled tab does not jump. */
const MAX_FRAME = 0.25;

export class EditorClips {
  private handles = new Map<string, number>();
  private playing = false;
  private lastPlay = 0;

  constructor(private readonly world: World) {}

  /** Fills the picker with the holder's clips. */
  load(holder: Entity): void {
    const sel = el<HTMLSelectElement>('ed-clip');
    sel.replaceChildren(new Option('(rest pose)', ''));
    this.handles.clear();
    for (const c of this.world.anim.listClips(this.world.get(holder, Rig).asset)) {
      this.handles.set(c.name, c.handle);
      sel.add(new Option(`${c.name} (${c.duration.toFixed(2)} s)`, c.name));
    }
    el('ed-anim').hidden = this.handles.size === 0;
    el('ed-no-clips').hidden = this.handles.size > 0;
  }

  /** The clip's handle (undefined: no clip, or not one of the holder's). */
  handle(clip: string | null): number | undefined {
    return clip === null ? undefined : this.handles.get(clip);
  }

  /** Seconds (0 without a clip). */
  duration(clip: string | null): number {
    const h = this.handle(clip);
    return h === undefined ? 0 : (this.world.anim.listClips().find((c) => c.handle === h)?.duration ?? 0);
  }

  /** Plays or stops; returns whether it plays. */
  toggle(): boolean {
    this.playing = !this.playing;
    return this.playing;
  }

  stop(): void {
    this.playing = false;
  }

  /** The time (looped) a playing clip reaches at `now` (ms, the animation frame's clock) from
   * `time`, or null when nothing moves. */
  advance(now: number, clip: string | null, time: number): number | null {
    if (!this.playing || clip === null) {
      this.lastPlay = now;
      return null;
    }
    const dt = Math.min(Math.max(0, (now - this.lastPlay) / 1000), MAX_FRAME);
    this.lastPlay = now;
    const dur = this.duration(clip);
    if (dur <= 0 || dt === 0) return null;
    return (time + dt) % dur;
  }
}
