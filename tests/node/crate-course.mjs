// A crate course for the NavAgent and replay tests: a floor with a crate across its whole width,
// baked by Recast through world.loadLevel (the crate is a hole: the far side is an island of the
// mesh), and a character that walks at the crate and vaults it.
import { CharacterController, NavAgent, Transform, Vault } from '../../dist/web/bridge/index.js';

const DT = 1 / 60;

/** A floor with a crate across its whole width, baked by Recast (the crate is a hole: the far
 * side is an island of the mesh), and a character with a CharacterController, a Vault (no
 * Animator: it travels over by script) and a NavAgent in `driveMode`. */
export async function crateCourse(world, driveMode = 'Manual') {
  const level = await world.loadLevel({
    name: 'crate-course',
    pieces: [
      { name: 'floor', kind: 'floor', shape: 'box', center: [0, -0.05, 4], size: [4, 0.1, 12] },
      { name: 'crate', kind: 'obstacle', shape: 'box', center: [0, 0.375, 4], size: [4, 0.75, 0.4] },
    ],
  }, { navMesh: 'bake' });
  const hero = world.spawn();
  world.insert(hero, Transform, { position: [0, 0, 1] });
  world.insert(hero, CharacterController, { radius: 0.3, height: 1.8, center: [0, 0.9, 0] });
  world.insert(hero, Vault, {});
  world.insert(hero, NavAgent, { navMesh: level.navMesh, driveMode, movementSpeed: 1.4, stoppingDistance: 0.1 });
  world.step(DT);
  return { level, hero };
}

/** Walks the hero at the crate (0.03 m a step), vaults it; the steps until the vault is over. */
export function vaultTheCrate(world, hero) {
  let steps = 0;
  while (world.get(hero, Transform).position[2] < 2.9 && steps < 200) {
    world.controller.move(hero, [0, 0, 0.03]);
    world.step(DT);
    steps++;
  }
  world.vault.request(hero);
  do {
    world.step(DT);
    steps++;
  } while (world.get(hero, Vault).state !== 'Idle' && steps < 600);
  return steps;
}

