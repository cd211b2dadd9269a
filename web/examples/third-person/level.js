// The game's level, composed from three of Limber's generated levels (assets/levels/*.json,
// boxes with a centre, size, rotation and kind): the nav arena is the open ground, the
// corridor is turned and set outside the arena's back wall so that its far end opens into
// the arena through a door cut in that wall, and the vault course's 0.75 x 0.4 m box (the
// vault clip's own) is the crate just inside the door. One ground slab with a fence around
// replaces the three levels' own floors. The result is a level in the same format, which
// the scene loads as colliders ("level") and Recast bakes into the navmesh.

/** Corridor frame -> world: turned -90 degrees about +Y (its lane's +Z becomes world -X,
 * its second leg's +X becomes world +Z) and moved so that its far end meets the door. */
const CORRIDOR_AT = [12, 0, -19.2];
const corridorPoint = ([x, y, z]) => [CORRIDOR_AT[0] - z, CORRIDOR_AT[1] + y, CORRIDOR_AT[2] + x];
const corridorSize = ([x, y, z]) => [z, y, x];

/** The door in the arena's back wall (z = -10.1), as wide as the corridor's lane. */
const DOOR_HALF_WIDTH = 0.6;

/** Ground and fence: everything the player can reach, x in [-13, 17], z in [-24, 13]. */
const GROUND = { min: [-13, -24], max: [17, 13] };
const FENCE_HEIGHT = 1.1;

const IDENTITY = [0, 0, 0, 1];
const box = (name, kind, center, size, rotation = IDENTITY) => ({ name, kind, shape: 'box', center, size, rotation });

function find(level, name) {
  const piece = level.pieces.find((p) => p.name === name);
  if (!piece) throw new Error(`level '${level.name}' has no piece '${name}'`);
  return piece;
}

/** The arena's back wall with a door in the middle: two pieces either side of it. */
function backWallWithDoor(wall) {
  const [cx, cy, cz] = wall.center;
  const [sx, sy, sz] = wall.size;
  const left = cx - sx / 2;
  const right = cx + sx / 2;
  const west = -DOOR_HALF_WIDTH - left;
  const east = right - DOOR_HALF_WIDTH;
  return [
    box('wall_border_back_west', 'wall', [left + west / 2, cy, cz], [west, sy, sz]),
    box('wall_border_back_east', 'wall', [right - east / 2, cy, cz], [east, sy, sz]),
  ];
}

function fence() {
  const [x0, z0] = GROUND.min;
  const [x1, z1] = GROUND.max;
  const y = FENCE_HEIGHT / 2;
  const t = 0.3;
  return [
    box('fence_north', 'fence', [(x0 + x1) / 2, y, z1 + t / 2], [x1 - x0 + 2 * t, FENCE_HEIGHT, t]),
    box('fence_south', 'fence', [(x0 + x1) / 2, y, z0 - t / 2], [x1 - x0 + 2 * t, FENCE_HEIGHT, t]),
    box('fence_east', 'fence', [x1 + t / 2, y, (z0 + z1) / 2], [t, FENCE_HEIGHT, z1 - z0]),
    box('fence_west', 'fence', [x0 - t / 2, y, (z0 + z1) / 2], [t, FENCE_HEIGHT, z1 - z0]),
  ];
}

/**
 * Composes the game level from the parsed generated levels.
 * @param {{ arena: any, corridor: any, course: any }} levels
 */
export function composeLevel({ arena, corridor, course }) {
  const [x0, z0] = GROUND.min;
  const [x1, z1] = GROUND.max;
  const pieces = [box('ground', 'floor', [(x0 + x1) / 2, -0.05, (z0 + z1) / 2], [x1 - x0, 0.1, z1 - z0])];
  for (const p of arena.pieces) {
    if (p.name === 'floor') continue;
    if (p.name === 'wall_border_back') pieces.push(...backWallWithDoor(p));
    else pieces.push({ ...p, name: `arena_${p.name}` });
  }
  for (const p of corridor.pieces) {
    if (p.kind === 'floor') continue;
    // Every corridor piece is axis-aligned, so a quarter turn only swaps its x and z sizes.
    pieces.push(box(`corridor_${p.name}`, p.kind, corridorPoint(p.center), corridorSize(p.size)));
  }
  const crateSource = find(course, 'obstacle_low_02');
  const [, cy] = crateSource.center;
  pieces.push(box('crate', 'obstacle', [0, cy, -5.5], [...crateSource.size]));
  pieces.push(...fence());

  const lane = corridor.lane.points.map(corridorPoint);
  return {
    name: 'third-person',
    description: 'The nav arena (open ground, with a door in its back wall), the corridor outside it leading to that door, the vault course crate inside the door, one ground slab and a fence.',
    units: 'm',
    pieces,
    /** Where the player starts: the corridor's lane start, facing down the lane (world -X). */
    spawn: { position: lane[0], facing: [-1, 0, 0] },
    /** The corridor's lane (world points): start, corner, far end at the door. */
    lane,
    door: [0, 0, -10.1],
    crate: 'crate',
    /** The arena's named destinations, for the crowd. */
    destinations: arena.destinations.map((d) => ({ name: d.name, position: d.position })),
    bounds: { min: [x0, 0, z0], max: [x1, 0, z1] },
  };
}
