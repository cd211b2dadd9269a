/** Debug layers: named groups of three.js objects drawn over the scene, each with a checkbox
 * in the page's #layers panel. The playground registers its own (skeleton, IK targets and
 * hints, anchors and palms, surfaces, contacts; colliders and controllers in scenes that have
 * them, colliders-view.ts); a later module (casts, navmesh, paths) adds its layer the same way:
 *
 *   layers.register({ id: 'colliders', label: 'colliders', object: view.object, update: () => view.update() });
 *
 * The checkbox is `#show-<id>`; `?layers=a,b` in the URL turns exactly those layers on. */
import type * as THREE from 'three';

export interface DebugLayerDef {
  /** Short identifier: the checkbox id is `show-<id>`. */
  id: string;
  /** What the checkbox says: a few words, so the panel stays one line per layer. */
  label: string;
  /** The longer explanation shown on hover (colours, what each mark means). */
  title?: string;
  /** Shown while the layer is on (added to the scene by whoever owns it). */
  object: THREE.Object3D;
  /** Called after every world step while the layer is on. */
  update?: () => void;
  /** Default true. */
  on?: boolean;
}

interface Layer extends DebugLayerDef {
  box: HTMLInputElement;
}

export class DebugLayers {
  private readonly layers = new Map<string, Layer>();

  /** `panel`: where the checkboxes go; `changed`: called when a layer is shown or hidden. */
  constructor(
    private readonly panel: HTMLElement,
    private readonly changed: () => void,
    private readonly only: ReadonlySet<string> | null = null,
  ) {}

  register(def: DebugLayerDef): void {
    if (this.layers.has(def.id)) throw new Error(`debug layer '${def.id}' is registered twice`);
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `show-${def.id}`;
    label.append(box, ` ${def.label}`);
    if (def.title) label.title = def.title;
    this.panel.append(label);
    const layer: Layer = { ...def, box };
    this.layers.set(def.id, layer);
    box.addEventListener('change', () => this.show(def.id, box.checked));
    this.show(def.id, this.only ? this.only.has(def.id) : (def.on ?? true));
  }

  show(id: string, on: boolean): void {
    const l = this.layers.get(id);
    if (!l) throw new Error(`no debug layer '${id}'; have ${[...this.layers.keys()].join(', ')}`);
    l.box.checked = on;
    l.object.visible = on;
    if (on) l.update?.();
    this.changed();
  }

  visible(id: string): boolean {
    return this.layers.get(id)?.object.visible ?? false;
  }

  ids(): string[] {
    return [...this.layers.keys()];
  }

  /** After a world step: refresh the layers that are on. */
  update(): void {
    for (const l of this.layers.values()) if (l.object.visible) l.update?.();
  }
}
