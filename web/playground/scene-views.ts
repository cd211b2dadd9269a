/** The per-scene views: characters (bodies, the skeleton overlay), IK targets and hints, held
 * objects, a level's colliders, the interaction, vault and nav views and their HUD blocks, and
 * the debug layers (editor/layers.ts) each of them registers. */
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { CharacterController, Collider, EnvironmentInteraction, GripProfile, NavAgent, Rig, Transform, TwoBoneIK, Vault, type Entity, type World } from '../bridge/browser.js';
import { EntityMarker, GripView, RigMeshView, SkeletonView, type WorldView } from '../three/index.js';
import { ColliderWireView, ControllerView } from './colliders-view.js';
import { CROWD_AGENTS, CrowdView } from './crowd.js';
import { ContactsView } from './editor/contacts-view.js';
import { DebugLayers } from './editor/layers.js';
import { ColliderView, InteractionPanel, InteractionView } from './interaction.js';
import { NavControl } from './nav-control.js';
import { NavView, sceneNavMeshes } from './nav.js';
import { el, type Params } from './page.js';
import { rigFilesByEntity, type Loaded } from './scene-load.js';
import type { Stage } from './stage.js';
import { VaultPanel, VaultView } from './vault.js';

export interface SceneViews {
  /** Every view a step updates (bodies, markers, the solid grip and level views, interaction). */
  views: WorldView[];
  bodies: RigMeshView[];
  /** Draggable entities (IK targets and hints, held objects) and their markers. */
  markers: Map<Entity, EntityMarker>;
  /** Everything the grip views draw; the editor adds the surfaces it makes. */
  drawn: Entity[];
  /** The held prop, solid. */
  gripView: GripView;
  /** The palms layer's view. */
  palmsView: GripView;
  /** The first EnvironmentInteraction character. */
  interactor: Entity | undefined;
  interaction: { view: InteractionView; panel: InteractionPanel } | null;
  /** The level's box colliders, solid (walls between the camera and the subject fade). */
  level: ColliderView | null;
  vault: { view: VaultView; panel: VaultPanel } | null;
  nav: NavControl | null;
  /** The crowd layer's view (scenes with NavAgents). */
  crowd: CrowdView | null;
  layers: DebugLayers;
}

/** Characters: the rig's glTF mesh (the same file the scene loaded) or a generated body. */
function createBodies({ world, text, files, rigs, nameOf }: Loaded): Promise<RigMeshView[]> {
  const gltfOf = rigFilesByEntity(text);
  const loader = new GLTFLoader();
  // Each file is parsed once; every character drawn with it gets a clone (SkeletonUtils: its
  // own bones, shared geometry and materials), so a crowd of 100 parses one file, not 100.
  const parsed = new Map<string, Promise<THREE.Object3D>>();
  return Promise.all(
    rigs.map(async (e) => {
      const path = gltfOf.get(nameOf.get(e) ?? '');
      const bytes = path !== undefined ? files[path] : undefined;
      if (path === undefined || !bytes) return new RigMeshView(world, e);
      if (!parsed.has(path)) parsed.set(path, loader.parseAsync(bytes.slice().buffer, '').then((g) => g.scene));
      return new RigMeshView(world, e, { source: cloneSkinned(await parsed.get(path)!) });
    }),
  );
}

/** The skeleton: an overlay drawn through the body, off unless asked for (a debug layer). */
function skeletonLayer(world: World, rigs: readonly Entity[]): { group: THREE.Group; skeletons: SkeletonView[] } {
  const skeletons = rigs.map((e) => new SkeletonView(world, e, { jointRadius: 0.009 }));
  const group = new THREE.Group();
  group.name = 'layer:skeleton';
  for (const s of skeletons) {
    group.add(s.object);
    s.object.traverse((o) => {
      o.renderOrder = 5;
      const m = (o as THREE.Mesh).material;
      if (m && !Array.isArray(m)) {
        m.depthTest = false;
        m.transparent = true;
      }
    });
  }
  return { group, skeletons };
}

/** IK targets (draggable, orange) and hints (violet); held objects (GripProfile, teal: with
 * Object placement the arms follow). */
function createMarkers({ world, entities, nameOf }: Loaded): Map<Entity, EntityMarker> {
  const isMarkable = (e: Entity) => e !== 0 && world.alive(e) && world.has(e, Transform) && !world.has(e, Rig) && !world.has(e, TwoBoneIK);
  const markers = new Map<Entity, EntityMarker>();
  for (const e of entities) {
    if (!world.has(e, TwoBoneIK)) continue;
    const ik = world.get(e, TwoBoneIK);
    for (const [m, isTarget] of [
      [ik.target, true],
      [ik.hint, false],
    ] as const) {
      if (!isMarkable(m) || markers.has(m)) continue;
      const marker = isTarget
        ? new EntityMarker(world, m, { color: 0xff7043, radius: 0.03, label: nameOf.get(m) })
        : new EntityMarker(world, m, { color: 0xb388ff, radius: 0.022, label: nameOf.get(m) });
      markers.set(m, marker);
    }
  }
  for (const e of entities) {
    if (!world.has(e, GripProfile) || !isMarkable(e) || markers.has(e)) continue;
    const marker = new EntityMarker(world, e, { color: 0x26c6da, radius: 0.02, label: nameOf.get(e) });
    // a held object's origin is usually inside it: drawn over it, so there is something to click
    marker.object.material.depthTest = false;
    marker.object.renderOrder = 6;
    markers.set(e, marker);
  }
  return markers;
}

/** A level's colliders (solid), the environment interaction view and panel, the vault view and panel. */
function moduleViews(world: World, entities: readonly Entity[], invalidate: () => void): Pick<SceneViews, 'interactor' | 'interaction' | 'vault'> & { colliderView: ColliderView | null } {
  const colliderView = entities.some((e) => world.has(e, Collider)) ? new ColliderView(world, entities) : null;
  const interactor = entities.find((e) => world.has(e, EnvironmentInteraction));
  let interaction: SceneViews['interaction'] = null;
  if (interactor !== undefined) {
    const view = new InteractionView(world, interactor);
    interaction = { view, panel: new InteractionPanel(view, colliderView, () => invalidate()) };
    el('hud').appendChild(interaction.panel.element);
  }
  const vaulter = entities.find((e) => world.has(e, Vault));
  let vault: SceneViews['vault'] = null;
  if (vaulter !== undefined) {
    const view = new VaultView(world, vaulter);
    vault = { view, panel: new VaultPanel(view, () => invalidate()) };
    // with the character's other controls (the Animator block), above the debug panels
    el('animator').after(vault.panel.element);
  }
  return { colliderView, interactor, interaction, vault };
}

/** Builds the scene's views and adds them to the stage; `changed` runs when the nav block changes
 * the selected agent or its drive mode. */
export async function buildSceneViews(loaded: Loaded, stage: Stage, params: Params, changed: () => void): Promise<SceneViews> {
  const { world, entities, holders } = loaded;
  const three = stage.three;
  const bodies = await createBodies(loaded);
  const skeleton = skeletonLayer(world, loaded.rigs);
  const markers = createMarkers(loaded);
  const drawn: Entity[] = [...entities];
  // The held prop, solid; palms and green surface wireframes are debug layers.
  // A mid gunmetal grey: darker than the bodies, lighter than the background's shadows.
  const gripView = new GripView(world, drawn, { solid: true, palms: false, color: 0x4d5560 });
  const palmsView = new GripView(world, drawn, { surfaces: false });
  const surfacesView = new GripView(world, drawn, { palms: false });
  const contactsView = new ContactsView(world, holders);
  const { colliderView, interactor, interaction, vault } = moduleViews(world, entities, stage.invalidate);
  // Bodies cast shadows in scenes of a few characters; a crowd's would double the triangles
  // drawn (the shadow pass draws every body again) for marks too small to read from above.
  const shadows = bodies.length <= CROWD_AGENTS;
  for (const b of bodies) for (const m of b.meshes) m.castShadow = shadows;
  const views: WorldView[] = [...bodies, ...markers.values(), gripView];
  if (colliderView) views.push(colliderView);
  if (interaction) views.push(interaction.view);
  if (vault) three.add(vault.view.object);
  for (const v of views) three.add(v.object);
  // Nav agents: navmeshes, paths and targets (a debug layer), the HUD's nav block.
  const navAgents = entities.filter((e) => world.has(e, NavAgent));
  const navView = navAgents.length > 0 ? new NavView(world, sceneNavMeshes(world, loaded.text, loaded.files), navAgents) : null;
  if (navView) three.add(navView.object);
  const nav = navView ? new NavControl(loaded, navView, navAgents, changed, stage.invalidate) : null;
  const crowd = navAgents.length > 0 ? new CrowdView(world, navAgents) : null;
  if (crowd) three.add(crowd.object);
  // Debug layers (editor/layers.ts): each module's view registers one; #layers has the toggles.
  const ikLayer = new THREE.Group();
  ikLayer.name = 'layer:ik';
  for (const [e, m] of markers) if (!world.has(e, GripProfile)) ikLayer.add(m.object);
  for (const o of [skeleton.group, ikLayer, palmsView.object, surfacesView.object, contactsView.object]) three.add(o);
  // Each scene lists the layers it has something for. The showcase view starts clean: what
  // explains the scene (IK targets, the navmesh and paths) is on, the debugging overlays (palm
  // frames, casts, capsules) wait for a click, except in the grip editor, which works on them.
  const layers = new DebugLayers(el('layers'), stage.invalidate, params.layers);
  layers.register({ id: 'skeleton', label: 'skeleton', object: skeleton.group, update: () => skeleton.skeletons.forEach((s) => s.update()), on: params.skeleton });
  if (ikLayer.children.length > 0) layers.register({ id: 'ik', label: 'IK targets and hints', object: ikLayer });
  if (holders.length > 0 || params.editor || entities.some((e) => world.has(e, GripProfile))) {
    layers.register({ id: 'palms', label: 'anchors and palms', object: palmsView.object, update: () => palmsView.update(), on: params.editor });
    layers.register({ id: 'surfaces', label: 'grip surfaces', object: surfacesView.object, update: () => surfacesView.update(), on: params.editor });
    layers.register({ id: 'contacts', label: 'finger contacts', object: contactsView.object, update: () => contactsView.update(), on: params.editor });
  } else {
    for (const o of [palmsView.object, surfacesView.object, contactsView.object]) o.visible = false;
  }
  if (vault) layers.register({ id: 'vault', label: 'vault probe', object: vault.view.object, update: () => vault.view.update(), on: false });
  registerColliderLayers(world, entities, three, layers);
  if (navView) layers.register({ id: 'nav', label: 'navmesh, paths and steering targets', object: navView.object, update: () => navView.update() });
  if (crowd) layers.register({ id: 'crowd', label: 'crowd links and velocities', title: 'per agent: links to the neighbours it avoided, its path velocity (violet) and actual velocity (green)', object: crowd.object, update: () => crowd.update(), on: navAgents.length > CROWD_AGENTS });
  return { views, bodies, markers, drawn, gripView, palmsView, interactor, interaction, level: colliderView, vault, nav, crowd, layers };
}

/** The collide and controller modules' layers, in scenes that have colliders or controllers. */
function registerColliderLayers(world: World, entities: readonly Entity[], three: THREE.Scene, layers: DebugLayers): void {
  const colliderWires = new ColliderWireView(world, entities);
  if (colliderWires.count > 0) {
    three.add(colliderWires.object);
    layers.register({ id: 'colliders', label: 'colliders', object: colliderWires.object, update: () => colliderWires.update(), on: false });
  }
  const controllerView = new ControllerView(world, entities);
  if (entities.some((e) => world.has(e, CharacterController))) {
    three.add(controllerView.object);
    layers.register({ id: 'controllers', label: 'controller capsules', object: controllerView.object, update: () => controllerView.update(), on: false });
  }
}
