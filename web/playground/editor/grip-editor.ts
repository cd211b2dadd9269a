/** The grip editor (playground `?editor=1`): author a hold live, without "play".
 *
 * Preview gives the chosen character a GripHolder on the chosen object (Object placement,
 * blendSeconds 0). What is authored is one document (`GripDoc`, grip-doc.ts): anchors, main
 * hand, wrap, surfaces, both hands' finger poses (per-joint GripPoseDefs, or a captured
 * finger pose) and the clip under the grip. The world shown is a pure function of the
 * document: every change restores the snapshot taken when preview began
 * (World.snapshot/restore), writes the document into it (doc-world.ts) and steps once. So
 * undo gives back the exact pose, the same document in a fresh page gives the same hash, and
 * leaving preview (restore, no step) gives the scene's hash from before. Every edit is: push
 * the document on the undo stack, change it, apply. One drag is one undo step.
 *
 * This class holds the document, its undo/redo (history.ts) and the preview; the parts:
 * editor-panel.ts and panel-fields.ts (the panel), hand-edits.ts (the edited hand: bends,
 * fans, thumb, named poses, a new surface), anchor-gizmo.ts (anchors on the page's
 * TransformControls), finger-handles.ts (drag a joint up or down to bend it), clips.ts (the
 * clip under the grip), overlays.ts (mirror plane, reach gaps), editor-camera.ts (framing),
 * doc-world.ts (document <-> world) and grip-doc.ts (the document; export/import as
 * world.grip.captureFingerPose JSON plus a scene fragment). */
import type { Entity, FingerPose, Vec3, World, WorldSnapshot } from '../../bridge/browser.js';
import { el } from '../page.js';
import { AnchorGizmo } from './anchor-gizmo.js';
import { EditorClips } from './clips.js';
import { anchorOf, docFromWorld, holdStatus, objectSurfaces, profileInfo, writeDoc } from './doc-world.js';
import { frameAfterFirstStep, frameHold } from './editor-camera.js';
import type { EditorHost, EditorStatus } from './editor-host.js';
import { EditorPanel } from './editor-panel.js';
import { FingerHandles } from './finger-handles.js';
import { clone, exportFragment, importDoc, sceneWithDoc, type GripDoc, type SceneFragment } from './grip-doc.js';
import { HandEdits } from './hand-edits.js';
import { UndoHistory } from './history.js';
import { EditorOverlays } from './overlays.js';

export class GripEditor {
  readonly world: World;
  private doc: GripDoc | null = null;
  private readonly history = new UndoHistory<GripDoc>();
  private snapshot: WorldSnapshot | null = null;
  private wasPaused = false;
  private surfaceEntities = new Map<string, Entity>();
  /** The object's surfaces in the snapshot, by name. */
  private baseSurfaces = new Map<string, Entity>();
  /** The main or support anchor on the page's gizmo. */
  readonly anchors: AnchorGizmo;
  /** The hand edited and its edits. */
  readonly hands: HandEdits;
  private readonly overlays: EditorOverlays;
  readonly handles: FingerHandles;
  private readonly panel: EditorPanel;
  private readonly clips: EditorClips;

  constructor(private readonly host: EditorHost) {
    this.world = host.world;
    el('editor').hidden = false;
    this.anchors = new AnchorGizmo(host, {
      anchor: (role) => (this.doc ? anchorOf(this.world, host.scene.entity(this.doc.object), role) : 0),
      previewing: () => this.previewing,
      begin: () => this.pushUndo(),
      moved: (role, xf) => this.amend((d) => void (d.anchors[role] = xf)),
    });
    this.hands = new HandEdits(this, host);
    this.overlays = new EditorOverlays(host.three);
    this.handles = new FingerHandles(host, {
      begin: () => this.pushUndo(),
      bend: (finger, joint, deg) => this.hands.setBend(finger, joint, deg),
      current: (finger, joint) => this.hands.bend(finger, joint),
    });
    this.clips = new EditorClips(this.world);
    this.panel = new EditorPanel(this, this.world, host.scene, host.sceneName);
    this.panel.build();
    this.refreshPanel();
    const picked = this.panel.picked();
    if (picked !== null) frameAfterFirstStep(host, picked.holder, picked.object);
  }

  // --- the document -----------------------------------------------------------

  get previewing(): boolean {
    return this.snapshot !== null;
  }

  /** Writes the document into the restored snapshot and steps once. */
  private apply(): void {
    const d = this.doc;
    if (!d || !this.snapshot) return;
    this.world.restore(this.snapshot);
    this.surfaceEntities = new Map(this.baseSurfaces);
    const ids = { holder: this.host.scene.entity(d.holder), object: this.host.scene.entity(d.object), clip: this.clips.handle(d.clip) };
    writeDoc(this.world, this.host, ids, d, this.surfaceEntities);
    this.host.step();
    this.refreshPanel();
  }

  pushUndo(): void {
    if (!this.doc) return;
    this.history.push(this.doc);
    this.refreshButtons();
  }

  /** The document being edited (null before the first preview): read it here, change it
   * only through `edit` or `amend`. */
  get current(): Readonly<GripDoc> | null {
    return this.doc;
  }

  /** One undoable edit. */
  edit(change: (d: GripDoc) => void): void {
    if (!this.doc) return;
    this.pushUndo();
    change(this.doc);
    this.apply();
  }

  /** A change inside a drag, which pushed its one undo step as it began (`change` returns
   * false when it changed nothing: no step then). */
  amend(change: (d: GripDoc) => boolean | void): void {
    if (this.doc && change(this.doc) !== false) this.apply();
  }

  undo(): void {
    const prev = this.doc ? this.history.undo(this.doc) : null;
    if (prev === null) return;
    this.doc = prev;
    this.apply();
  }

  redo(): void {
    const next = this.doc ? this.history.redo(this.doc) : null;
    if (next === null) return;
    this.doc = next;
    this.apply();
  }

  /** The document (a copy). */
  document(): GripDoc | null {
    return this.doc ? clone(this.doc) : null;
  }

  // --- preview ----------------------------------------------------------------

  /** Starts authoring on the picked character and object. A scene without them has nothing
   * to preview (the panel says so); an error shows in the panel, never thrown. */
  enterPreview(): void {
    if (this.previewing) return;
    const picked = this.panel.picked();
    try {
      if (picked !== null) {
        this.startPreview(picked.holder, picked.object);
        this.panel.showMessage('');
      }
    } catch (err) {
      this.leavePreview();
      this.panel.showMessage(`Preview failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    el<HTMLInputElement>('ed-preview').checked = this.previewing;
  }

  private startPreview(holder: Entity, object: Entity): void {
    this.host.deselect();
    this.wasPaused = this.host.paused();
    this.host.setPaused(true);
    this.snapshot = this.world.snapshot();
    const fresh = docFromWorld(this.world, this.host, holder, object);
    const changed = !this.doc || this.doc.holder !== fresh.holder || this.doc.object !== fresh.object;
    if (changed) {
      this.doc = fresh;
      this.history.clear();
    }
    this.surfaceEntities = objectSurfaces(this.world, this.host, object);
    this.baseSurfaces = new Map(this.surfaceEntities);
    this.clips.load(holder);
    el('editor').classList.add('previewing');
    this.apply();
    // A character or object not framed yet: framed as it holds (after the step).
    if (changed) frameHold(this.host, holder, this.surfaceEntities.values());
    this.anchors.select(this.doc?.anchors.main ? 'main' : null);
  }

  leavePreview(): void {
    if (!this.snapshot) return;
    this.anchors.select(null);
    this.clips.stop();
    this.world.restore(this.snapshot);
    this.snapshot = null;
    this.surfaceEntities.clear();
    el<HTMLInputElement>('ed-preview').checked = false;
    el('editor').classList.remove('previewing');
    this.overlays.hide();
    this.handles.clear();
    this.host.setPaused(this.wasPaused);
    this.host.refresh();
    this.refreshPanel();
  }

  // --- the clip ---------------------------------------------------------------

  /** The clip's time as a fraction of its duration (the slider, whose drag pushed the undo step). */
  scrub(fraction: number): void {
    this.amend((d) => void (d.time = fraction * this.clips.duration(d.clip)));
  }

  /** Plays or stops the clip; returns whether it plays. */
  togglePlay(): boolean {
    return this.clips.toggle();
  }

  /** Advances a playing clip (called every animation frame by the page). */
  tick(now: number): void {
    const t = this.clips.advance(now, this.doc?.clip ?? null, this.doc?.time ?? 0);
    if (t !== null) this.amend((d) => void (d.time = t));
  }

  // --- export / import --------------------------------------------------------

  /** The finger pose of the edited hand as world.grip.captureFingerPose JSON, taken without wrap (so
   * the game's wrap starts from the authored pose). From then on the hand holds that captured
   * pose, so the editor shows exactly what a game that registers the export will show
   * (one undo step: Ctrl+Z goes back to the per-joint pose). */
  exportPose(): FingerPose {
    const d = this.doc;
    if (!d || !this.previewing) throw new Error('export needs the preview on');
    const wrap = d.wrap;
    d.wrap = false;
    this.apply();
    const side = this.hands.side();
    const holder = this.host.scene.entity(d.holder);
    const st = this.world.grip.status(holder)[side === 'Right' ? 'right' : 'left'];
    const pose = clone(this.world.grip.captureFingerPose(holder, st.hand ?? `${side}Hand`));
    d.wrap = wrap;
    const role = this.hands.role;
    if (d.poses[role].kind === 'def') this.pushUndo();
    d.poses[role] = { kind: 'captured', name: `${d.object}.${role}`, pose };
    this.apply();
    return pose;
  }

  /** GripProfile + anchors + surfaces as a scene fragment ({ entities: [...] }). */
  exportFragment(): SceneFragment {
    const d = this.doc;
    if (!d) throw new Error('nothing to export: enter preview first');
    return exportFragment(d, this.hands.role, profileInfo(this.world, this.host.nameOf, this.host.scene.entity(d.object)));
  }

  /** Reads back an exported fragment and (optionally) a captured pose for the edited hand. */
  importAll(fragmentText: string, poseText: string): void {
    const d = this.doc;
    if (!d) throw new Error('import needs the preview on');
    const info = profileInfo(this.world, this.host.nameOf, this.host.scene.entity(d.object));
    const next = importDoc(d, this.hands.role, fragmentText, poseText, info, (n) => this.world.grip.poseByJoint(n));
    this.pushUndo();
    this.doc = next;
    this.apply();
  }

  /** The scene file with the document written in (grip-doc.ts sceneWithDoc). */
  sceneWithDoc(): string {
    if (!this.doc) return JSON.stringify(JSON.parse(this.host.sceneText), null, 2);
    return sceneWithDoc(this.host.sceneText, this.doc, this.exportFragment());
  }

  // --- what the page shows ----------------------------------------------------

  status(): EditorStatus {
    const d = this.doc;
    const out: EditorStatus = { previewing: this.previewing, mainHand: d?.mainHand ?? null, mainDistance: NaN, supportDistance: NaN, contacts: { main: [], support: [] }, editRole: this.hands.role, canUndo: this.history.canUndo, canRedo: this.history.canRedo };
    return d && this.previewing ? { ...out, ...holdStatus(this.world, this.host.scene.entity(d.holder), d.mainHand) } : out;
  }

  private refreshButtons(): void {
    this.panel.refreshButtons(this.history.canUndo && this.previewing, this.history.canRedo && this.previewing);
  }

  /** Everything the panel and the overlays show, from the document and the last step. */
  refreshPanel(): void {
    this.refreshButtons();
    const d = this.doc;
    const on = this.previewing && d !== null;
    el('ed-body').hidden = !on;
    if (!on || !d) return;
    const holder = this.host.scene.entity(d.holder);
    this.panel.refreshReach(d, this.status());
    this.overlays.drawGaps(this.world, holder, d.mainHand);
    this.panel.refreshMirror(this.overlays.showMirror(this.world, this.host.scene.entity(d.object)));
    if (!this.host.gizmo.dragging) this.anchors.place();
    const p = d.poses[this.hands.role];
    this.panel.refreshFingers(p);
    this.panel.refreshSurfaces(d);
    this.panel.refreshClip(d, this.clips.duration(d.clip));
    this.handles.show(holder, this.hands.side(), p.kind === 'def');
  }

  /** Segments drawn from palms that cannot reach to their anchors, as [from, to] pairs. */
  gapLines(): [Vec3, Vec3][] {
    return this.overlays.gapLines();
  }

  /** World positions of the edited hand's finger joints (handles), by "finger:joint". */
  handlePositions(): Record<string, Vec3> {
    return this.handles.positions();
  }
}
