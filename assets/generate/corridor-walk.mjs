// assets/scenes/corridor-walk.json from assets/levels/corridor.json: the Mixamo mannequin
// walks the corridor with its walk clip and root motion, through a CharacterController, against
// the level's pieces as box colliders. Run: node assets/generate/corridor-walk.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const level = JSON.parse(readFileSync(join(root, 'assets/levels/corridor.json'), 'utf8'));
const num = (x) => Number(x.toFixed(7)) + 0;
/** A yaw about +Y in degrees as [x, y, z, w] (+90 turns +Z to +X). */
const yaw = (deg) => [0, num(Math.sin((deg * Math.PI) / 360)), 0, num(Math.cos((deg * Math.PI) / 360))];

export const STEPS = 840;
const scene = {
  name: 'corridor-walk',
  description:
    'The Mixamo mannequin walks the corridor level (its pieces as box colliders) with the walk clip and root motion, through a CharacterController (radius 0.3, height 1.8). It starts heading 4 degrees toward the right wall, so the controller slides it along the walls and around the alcove ends; at the end of the first leg the timeline turns it toward +X in three 30-degree steps.',
  assets: {
    rigs: { mannequin: { gltf: 'assets/rigs/mannequin-mixamo.glb' } },
    controllers: {
      walk: { rig: 'mannequin', rootJoint: 'Hips', entry: 'Walk', states: { Walk: { clip: 'walk' } } },
    },
  },
  entities: [
    ...level.pieces.map((p) => ({
      name: p.name,
      components: {
        Transform: { position: p.center, rotation: p.rotation },
        Collider: { shape: 'Box', size: p.size },
      },
    })),
    {
      name: 'hero',
      components: {
        Transform: { position: [-0.1, 0, 0], rotation: yaw(-4) },
        Rig: { asset: 'mannequin' },
        Animator: { controller: 'walk', applyRootMotion: true },
        CharacterController: { radius: 0.3, height: 1.8, center: [0, 0.9, 0], stepOffset: 0.3, slopeLimit: 45, skinWidth: 0.01 },
      },
    },
  ],
  timeline: [30, 60, 90].map((deg, i) => ({
    step: 490 + 10 * i,
    update: { entity: 'hero', component: 'Transform', fields: { rotation: yaw(deg) } },
  })),
};
writeFileSync(join(root, 'assets/scenes/corridor-walk.json'), JSON.stringify(scene, null, 2) + '\n');
console.log(`wrote assets/scenes/corridor-walk.json (${scene.entities.length} entities)`);
