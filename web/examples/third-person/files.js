// Every file the game reads: generated assets of the Limber repository (npm run assets),
// fetched relative to the page. copy-assets.mjs puts them into public/ under the same paths.
export const MANNEQUIN = 'assets/rigs/mannequin-mixamo.glb';
/** The rifle (entities, anchors, grip surfaces) comes from the grip lab scene. */
export const RIFLE_SCENE = 'assets/scenes/grip-lab.json';
export const LEVEL_FILES = {
  arena: 'assets/levels/nav-arena.json',
  corridor: 'assets/levels/corridor.json',
  course: 'assets/levels/vault-course.json',
};
/** What some NPCs carry. */
export const PROP_FILES = {
  cup: 'assets/props/cup.json',
  hammer: 'assets/props/hammer.json',
  pistol: 'assets/props/pistol.json',
  ball: 'assets/props/ball.json',
};
export const GAME_FILES = [MANNEQUIN, RIFLE_SCENE, ...Object.values(LEVEL_FILES), ...Object.values(PROP_FILES)];
