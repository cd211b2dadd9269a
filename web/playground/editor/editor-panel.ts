/** The grip editor's panel (#editor in index.html): built once in named stages (pickers,
 * anchor buttons, pose controls, clip controls, import/export buttons, keys), then refreshed
 * from the document after every step (reach, mirror, fingers, surfaces, clip). Every action
 * goes to the GripEditor; the panel holds no state of its own but the DOM. */
import { GripProfile, Rig, type Entity, type Scene, type World } from '../../bridge/browser.js';
import { EDITOR_SCENE, el } from '../page.js';
import { button, download } from './dom.js';
import { BUILTIN_POSES, type GripDoc, type PoseDoc } from './grip-doc.js';
import type { EditorStatus } from './editor-host.js';
import type { GripEditor } from './grip-editor.js';
import { REACH_TOLERANCE } from './overlays.js';
import { fillFingerTable, surfaceBox } from './panel-fields.js';

/** Why the scene cannot be previewed (no character with a Rig, no object with a
 * GripProfile), in plain words; null when it can. */
export function whyNoPreview(world: World, scene: Scene, sceneName: string): string | null {
  const ents = [...scene.entities.values()];
  const missing: string[] = [];
  if (!ents.some((e) => world.has(e, Rig))) missing.push('no character with a Rig (nobody to hold anything)');
  if (!ents.some((e) => world.has(e, GripProfile))) missing.push('no object with a GripProfile (nothing to hold)');
  return missing.length === 0 ? null : `${sceneName} has ${missing.join(' and ')}, so there is no grip to preview here.`;
}

export class EditorPanel {
  constructor(
    private readonly ed: GripEditor,
    private readonly world: World,
    private readonly scene: Scene,
    private readonly sceneName: string,
  ) {}

  /** Builds every control once. */
  build(): void {
    this.buildPickers();
    this.buildAnchorButtons();
    this.buildPoseControls();
    this.buildClipControls();
    this.buildIoButtons();
    this.wireKeys();
  }

  /** Character (Rig) and object (GripProfile) pickers and the preview box; a scene without
   * either says so and the preview box is disabled. */
  private buildPickers(): void {
    const w = this.world;
    const ents = [...this.scene.entities];
    const chars = el<HTMLSelectElement>('ed-character');
    for (const [n, e] of ents) if (w.has(e, Rig)) chars.add(new Option(n, n));
    const objs = el<HTMLSelectElement>('ed-object');
    for (const [n, e] of ents) if (w.has(e, GripProfile)) objs.add(new Option(n, n));
    const pickerChanged = (): void => {
      if (this.ed.previewing) {
        this.ed.leavePreview();
        this.ed.enterPreview();
      }
    };
    chars.addEventListener('change', pickerChanged);
    objs.addEventListener('change', pickerChanged);
    const preview = el<HTMLInputElement>('ed-preview');
    preview.addEventListener('change', () => {
      if (preview.checked) this.ed.enterPreview();
      else this.ed.leavePreview();
    });
    const why = whyNoPreview(w, this.scene, this.sceneName);
    chars.disabled = chars.options.length === 0;
    objs.disabled = objs.options.length === 0;
    preview.disabled = why !== null;
    if (why !== null) this.showMessage(why, true);
  }

  /** The picked character and object; null when the scene has none to pick. */
  picked(): { holder: Entity; object: Entity } | null {
    const holder = el<HTMLSelectElement>('ed-character').value;
    const object = el<HTMLSelectElement>('ed-object').value;
    if (holder === '' || object === '') return null;
    return { holder: this.scene.entity(holder), object: this.scene.entity(object) };
  }

  /** A message under the preview box (an empty text hides it); `offerScene` adds a link to the
   * editor on the shipped scene that has a grip. */
  showMessage(text: string, offerScene = false): void {
    const box = el('ed-message');
    box.textContent = text;
    if (offerScene) {
      const a = document.createElement('a');
      a.href = `?scene=${encodeURIComponent(EDITOR_SCENE)}&editor=1`;
      a.textContent = `Open the editor on ${EDITOR_SCENE}`;
      box.append(' ', a, '.');
    }
    box.hidden = text === '';
  }

  private buildAnchorButtons(): void {
    const ed = this.ed;
    el('ed-anchor-buttons').append(
      button('ed-anchor-main', 'main anchor', 'move/turn the main anchor with the gizmo', () => ed.anchors.select(ed.anchors.role === 'main' ? null : 'main')),
      button('ed-anchor-support', 'support anchor', 'move/turn the support anchor with the gizmo', () => ed.anchors.select(ed.anchors.role === 'support' ? null : 'support')),
      button('ed-gizmo-translate', 'move', 'gizmo: translate (W)', () => ed.anchors.setMode('translate')),
      button('ed-gizmo-rotate', 'turn', 'gizmo: rotate (E)', () => ed.anchors.setMode('rotate')),
    );
  }

  /** Main-hand switch, the hand edited, "start from pose", undo/redo/reset/focus, wrap, new
   * surface. */
  private buildPoseControls(): void {
    const ed = this.ed;
    el('ed-hand-buttons').append(
      button('ed-switch', 'switch main hand', "mirror the grip onto the other hand through the object's mirror plane", () =>
        ed.edit((d) => {
          d.mainHand = d.mainHand === 'Right' ? 'Left' : 'Right';
        }),
      ),
    );
    const role = el<HTMLSelectElement>('ed-role');
    role.addEventListener('change', () => ed.hands.setRole(role.value === 'support' ? 'support' : 'main'));
    const start = el<HTMLSelectElement>('ed-start');
    start.add(new Option('start from pose…', ''));
    for (const p of this.poseNames()) start.add(new Option(p, p));
    start.addEventListener('change', () => {
      if (start.value) ed.hands.startFrom(start.value);
      start.value = '';
    });
    el('ed-undo-buttons').append(
      button('ed-undo', 'undo', 'Ctrl+Z', () => ed.undo()),
      button('ed-redo', 'redo', 'Ctrl+Shift+Z', () => ed.redo()),
      button('ed-reset', 'reset to pose', 'back to the named pose this hand started from', () => ed.hands.resetPose()),
      button('ed-focus-hand', 'focus hand', 'turn the camera onto the edited hand', () => ed.hands.focusHand()),
    );
    const wrap = el<HTMLInputElement>('ed-wrap');
    wrap.addEventListener('change', () => {
      const on = wrap.checked;
      ed.edit((d) => {
        d.wrap = on;
      });
    });
    el('ed-surface-buttons').append(button('ed-new-surface', 'new surface', 'a cylinder across the main palm, sized to the hand', () => ed.hands.newSurface()));
  }

  /** The builtin poses and every pose a GripProfile of the scene names. */
  private poseNames(): Set<string> {
    const names = new Set<string>(BUILTIN_POSES);
    for (const e of this.scene.entities.values()) {
      if (!this.world.has(e, GripProfile)) continue;
      const g = this.world.get(e, GripProfile);
      for (const n of [g.mainPose, g.supportPose]) if (n) names.add(n);
    }
    return names;
  }

  /** The clip under the grip, its time slider (one drag is one undo step) and play. */
  private buildClipControls(): void {
    const ed = this.ed;
    const clip = el<HTMLSelectElement>('ed-clip');
    clip.addEventListener('change', () =>
      ed.edit((d) => {
        d.clip = clip.value || null;
        d.time = 0;
      }),
    );
    const time = el<HTMLInputElement>('ed-time');
    time.addEventListener('pointerdown', () => ed.pushUndo());
    time.addEventListener('input', () => ed.scrub(Number(time.value)));
    el('ed-play').addEventListener('click', () => {
      el('ed-play').textContent = ed.togglePlay() ? 'stop' : 'play';
    });
  }

  private buildIoButtons(): void {
    const ed = this.ed;
    el('ed-io-buttons').append(
      button('ed-export', 'export', 'the edited hand as world.grip.captureFingerPose JSON; the profile, anchors and surfaces as a scene fragment', () => {
        el<HTMLTextAreaElement>('ed-pose-json').value = JSON.stringify(ed.exportPose(), null, 1);
        el<HTMLTextAreaElement>('ed-fragment-json').value = JSON.stringify(ed.exportFragment(), null, 1);
      }),
      button('ed-import', 'import', 'read the two boxes back', () => {
        const msg = el('ed-io-error');
        try {
          ed.importAll(el<HTMLTextAreaElement>('ed-fragment-json').value, el<HTMLTextAreaElement>('ed-pose-json').value);
          msg.textContent = '';
        } catch (err) {
          msg.textContent = err instanceof Error ? err.message : String(err);
        }
      }),
      button('ed-save', 'save scene', 'download the whole scene with this grip', () => download(`${this.sceneName.replace(/\.json$/, '')}-edited.json`, ed.sceneWithDoc() + '\n')),
    );
  }

  /** W/E: gizmo move/turn; Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo (while previewing, not
   * while typing). */
  private wireKeys(): void {
    const ed = this.ed;
    window.addEventListener('keydown', (ev) => {
      const t = ev.target as HTMLElement | null;
      if (t && (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type === 'text'))) return;
      if (!(ev.ctrlKey || ev.metaKey) || !ed.previewing) {
        if (ed.previewing && !ev.ctrlKey && !ev.metaKey && t?.tagName !== 'INPUT') {
          if (ev.key === 'w') ed.anchors.setMode('translate');
          if (ev.key === 'e') ed.anchors.setMode('rotate');
        }
        return;
      }
      const key = ev.key.toLowerCase();
      if (key === 'z' && !ev.shiftKey) {
        ev.preventDefault();
        ed.undo();
      } else if ((key === 'z' && ev.shiftKey) || key === 'y') {
        ev.preventDefault();
        ed.redo();
      }
    });
  }

  refreshButtons(canUndo: boolean, canRedo: boolean): void {
    el<HTMLButtonElement>('ed-undo').disabled = !canUndo;
    el<HTMLButtonElement>('ed-redo').disabled = !canRedo;
  }

  /** The palms' distances to their anchors, the main hand, wrap and contacts. */
  refreshReach(d: GripDoc, st: EditorStatus): void {
    const mm = (m: number): string => `${(m * 1000).toFixed(2)} mm`;
    el('ed-main-distance').textContent = mm(st.mainDistance);
    el('ed-support-distance').textContent = mm(st.supportDistance);
    const short = Math.max(st.mainDistance, st.supportDistance);
    el('ed-reach').textContent = short > REACH_TOLERANCE ? `cannot reach: ${mm(short)} short` : 'both palms on their anchors';
    el('ed-reach').className = short > REACH_TOLERANCE ? 'no' : 'yes';
    el('ed-main-hand').textContent = d.mainHand;
    el<HTMLInputElement>('ed-wrap').checked = d.wrap;
    el('ed-contacts').textContent = `main: ${st.contacts.main.join(', ') || '—'} · support: ${st.contacts.support.join(', ') || '—'}`;
  }

  refreshMirror(mirror: string): void {
    el('ed-mirror').textContent = `mirror plane: the object's ${mirror} axis is its normal`;
  }

  /** The edited hand's finger table (panel-fields.ts). */
  refreshFingers(p: PoseDoc): void {
    fillFingerTable(p, this.ed.hands);
  }

  /** One box per GripSurface (panel-fields.ts). */
  refreshSurfaces(d: GripDoc): void {
    el('ed-surfaces').replaceChildren(...d.surfaces.map((s, i) => surfaceBox(this.ed, s, i)));
  }

  /** The clip picked and its time (the slider is a fraction of the clip's duration). */
  refreshClip(d: GripDoc, duration: number): void {
    el<HTMLSelectElement>('ed-clip').value = d.clip ?? '';
    el<HTMLInputElement>('ed-time').value = String(duration > 0 ? d.time / duration : 0);
    el('ed-time-value').textContent = `${d.time.toFixed(2)} s`;
  }
}
