/* The NavAgent component: an agent on a navmesh that moves or clamps its entity's Transform in
 * the Move phase (after root motion) and drives the Animator's locomotion parameter, in
 * four drive modes (the agent moves it, root motion moves it, the path steers and root
 * motion moves, or the game moves it and the agent only reports), with its own turning and a
 * speed attenuation by turn angle; see LB_NAV_AGENT_FIELDS in limber/components.h. While it
 * heads for a destination in NavDestination or Both it owns the locomotion parameter and the
 * entity's movement requests: the module's `owner` hook refuses the game's writes of them. */
#include "../anim/animator_internal.h"
#include "../math/vec3_inline.h"
#include "../world/parallel.h"
#include "nav_internal.h"
#include <string.h>

#define NAV_AGENT_CORNERS 8u /* corners read per step: the walk of one step never needs more */
#define NAV_DEG LB_RAD2DEG
/* The kept corridor (docs/navigation.md, "When an agent replans"): its capacity in polygons (a
 * longer plan is not kept: that agent plans every step, as before corridors), how many of its
 * first polygons are searched for the agent's polygon, and its age at which it is planned again
 * (Detour's crowd: a new plan every 0.5 s finds shortcuts the kept topology misses). */
#define NAV_AGENT_CORRIDOR 64u
#define NAV_AGENT_LOOKAHEAD 4u
#define NAV_AGENT_REPLAN 0.5f

/* Private per-agent state. */
typedef struct lb_nav_agent_state {
  lb_nav_point point; /* where the agent is on the mesh */
  versor rotation;    /* the Transform rotation the agent left (NavDestination starts there) */
  uint32_t mesh;      /* mesh `point` is on; 0 = not placed yet (or the Transform was written) */
  /* set while the agent sends its own request through lb_world_move_request, so that the
   * module's move hook lets it pass to the controller */
  uint32_t requesting;
  /* the locomotion parameter's index in the Animator's controller, cached per (controller,
   * name) so no step compares strings */
  uint32_t param_controller;
  lb_name param_name;
  int32_t param_index;
  /* the agent owned the parameter last step and wrote `written` into it: the first step it no
   * longer owns it, it leaves it at rest (0) unless the game has written it since */
  uint32_t owned;
  float written;
  /* the last step's dt: with a controller under root motion (Both, RootMotion) the step's
   * displacement is the controller's move of the last step, so the velocity divides by it */
  float last_dt;
  /* what avoidance did in the last step, for lb_world_nav_avoidance (debug drawing) */
  float preferred[3]; /* the path's velocity before avoidance */
  /* a Both agent steered by its path or avoidance in the last step: the crowd reads its
   * desiredVelocity, not its measured velocity (lb_nav_agent_crowd_velocity) */
  uint32_t planned;
  uint32_t near_count;
  lb_entity near[LB_NAV_AVOID_NEIGHBOURS];
  /* The polygons of the last complete plan from the agent's polygon (corridor[0]) to the goal's
   * (corridor_end), kept in the agent's own state (a snapshot copies it; a worker's scratch is
   * shared by its agents) so a step string-pulls it instead of planning: 0 polygons = plan.
   * corridor_goal is the destination it was planned for, corridor_age its age in seconds. */
  uint32_t corridor_count;
  float corridor_age;
  float corridor_goal[3];
  lb_nav_point corridor_end;
  uint32_t corridor[NAV_AGENT_CORRIDOR];
} lb_nav_agent_state;

#define LB_SCHEMA_STRUCT lb_nav_agent_c
LB_COMPONENT_INFO(lb_nav_agent_info, "NavAgent", LB_NAV_AGENT_FIELDS);
#undef LB_SCHEMA_STRUCT

static lb_result nav_agent_stage(lb_write *wr) {
  lb_nav_agent_c *v = wr->value;
  if (!lb_navmesh_get(wr->world, v->nav_mesh)) {
    return lb_fail(wr->world, LB_ERR_INVALID_ARGUMENT,
                   "%s: field 'navMesh' = %u is not a navmesh asset of this world", wr->where,
                   v->nav_mesh);
  }
  /* A new destination starts the agent in this very write: no frame of delay after stop. */
  const lb_nav_agent_c *cur = wr->current;
  if (cur && memcmp(cur->destination, v->destination, sizeof(vec3)) != 0) {
    v->has_destination = 1;
    v->stopped = 0;
  }
  /* room in the avoidance grid for one more agent: a step never allocates */
  if (!wr->had &&
      lb_nav_crowd_reserve(wr->world, nav_world_of(wr->world)->crowd.agent_count + 1u) != LB_OK) {
    return lb_fail(wr->world, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", wr->where);
  }
  return LB_OK;
}

static void nav_agent_commit(lb_write *wr, void *state) {
  lb_nav_agent_state *st = state;
  const lb_nav_agent_c *cur = wr->current;
  const lb_nav_agent_c *v = wr->value;
  if (!wr->had || cur->nav_mesh != v->nav_mesh) {
    st->mesh = 0; /* placed again on the next step */
  }
  /* any write by the game (setDestination, sent again or not, stop, resume) plans anew */
  st->corridor_count = 0;
  if (!wr->had) {
    nav_world_of(wr->world)->crowd.agent_count++;
  }
}

static void nav_agent_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)slot;
  (void)value;
  (void)state;
  nav_world_of(w)->crowd.agent_count--;
}

/* Told after any component write: a written Transform places the agent again (a teleport is
 * not clamped through walls). Root motion writes the Transform directly, not through here. */
void lb_nav_changed(lb_world *w, uint32_t type, uint32_t slot) {
  if (type == LB_TRANSFORM && lb_slot_has(w, slot, LB_NAV_AGENT)) {
    lb_nav_agent_state *st = lb_component_state(w, slot, LB_NAV_AGENT);
    st->mesh = 0;
  }
}

/* The agent's Transform when the agent runs on this entity: a root, on a live mesh. */
static lb_transform_c *nav_agent_transform(const lb_world *w, uint32_t slot,
                                           const lb_nav_agent_c *a) {
  lb_transform_c *t = lb_component_try(w, slot, LB_TRANSFORM);
  if (!t || t->parent != LB_NULL_ENTITY || !lb_navmesh_get(w, a->nav_mesh)) {
    return NULL;
  }
  return t;
}

/* Whether the agent owns its locomotion parameter and the entity's movement requests: it
 * writes them itself (NavDestination: the position and the parameter; Both: the parameter,
 * which the root motion follows) while it heads for a destination, arrived included (it holds
 * the character at the goal until stopped). */
static bool nav_agent_owns(const lb_world *w, uint32_t slot, const lb_nav_agent_c *a) {
  return (a->drive_mode == LB_NAV_DRIVE_DESTINATION || a->drive_mode == LB_NAV_DRIVE_BOTH) &&
         a->has_destination && !a->stopped && nav_agent_transform(w, slot, a) != NULL;
}

bool lb_nav_owner(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                  lb_input_owner *out) {
  if (!lb_slot_has(w, slot, LB_NAV_AGENT)) {
    return false;
  }
  const lb_nav_agent_c *a = lb_component_ptr(w, slot, LB_NAV_AGENT);
  if (!nav_agent_owns(w, slot, a)) {
    return false;
  }
  if (input == LB_INPUT_ANIMATOR_PARAM &&
      (a->locomotion_param == 0 || strcmp(lb_world_name_text(w, a->locomotion_param), param))) {
    return false; /* another parameter: the game's */
  }
  out->component = "NavAgent";
  out->state = a->drive_mode == LB_NAV_DRIVE_BOTH
                   ? "driveMode 'Both' with a destination: it sets the locomotion parameter and "
                     "the root motion alone moves the character"
                   : "driveMode 'NavDestination' with a destination: it moves the character and "
                     "sets the locomotion parameter";
  out->until = "it is stopped (world.nav.stop, or hasDestination false) or its driveMode is "
               "'Manual' or 'RootMotion'";
  return true;
}

bool lb_nav_take_move(lb_world *w, uint32_t slot, const float delta[3]) {
  (void)delta;
  if (!lb_slot_has(w, slot, LB_NAV_AGENT)) {
    return false;
  }
  const lb_nav_agent_state *st = lb_component_state(w, slot, LB_NAV_AGENT);
  const lb_nav_agent_c *a = lb_component_ptr(w, slot, LB_NAV_AGENT);
  if (st->requesting || a->drive_mode != LB_NAV_DRIVE_DESTINATION) {
    return false; /* the agent's own request, or root motion moves this agent */
  }
  /* NavDestination: the agent alone moves the character; the request is dropped (without a
   * controller the agent's position write would overwrite it anyway) */
  return nav_agent_transform(w, slot, a) != NULL;
}

/* Sends the agent's request through the entity's mover (its CharacterController): true when a
 * module took it. A zero delta asks whether there is one. */
static bool nav_agent_request(lb_world *w, uint32_t slot, lb_nav_agent_state *st,
                              const float delta[3]) {
  st->requesting = 1u;
  bool taken = lb_world_move_request(w, slot, delta);
  st->requesting = 0u;
  return taken;
}

bool lb_nav_agents_use(const lb_world *w, uint32_t first_mesh) {
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_NAV_AGENT); lb_each_next(&it, &s);) {
    const lb_nav_agent_c *a = lb_component_ptr(w, s, LB_NAV_AGENT);
    if (a->nav_mesh >= first_mesh) {
      return true;
    }
  }
  return false;
}

/* Yaw of the rotation's +Z axis about +Y (radians, atan2(x, z)). */
static float nav_facing_yaw(const versor q) {
  vec3 z = {0.0f, 0.0f, 1.0f}, f;
  lb_quat_rotate(q, z, f);
  return lb_atan2(f[0], f[2]);
}

static float nav_wrap_pi(float a) {
  while (a > LB_PI) {
    a -= 2.0f * LB_PI;
  }
  while (a <= -LB_PI) {
    a += 2.0f * LB_PI;
  }
  return a;
}

/* The point `dist` metres along the corners from corner 0 (the last corner when shorter). */
static void nav_along(const float *pts, uint32_t count, float dist, float *out) {
  memcpy(out, pts, 3 * sizeof(float));
  for (uint32_t k = 1; k < count; ++k) {
    const float *a = pts + 3u * (k - 1u), *b = pts + 3u * k;
    float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    float len = lb_sqrt(dx * dx + dy * dy + dz * dz);
    if (len >= dist && len > 0.0f) {
      float t = dist / len;
      out[0] = a[0] + dx * t;
      out[1] = a[1] + dy * t;
      out[2] = a[2] + dz * t;
      return;
    }
    dist -= len;
    memcpy(out, b, 3 * sizeof(float));
  }
}

/* The Animator float parameter named by the agent (its index; *out the Animator), or -1 (no
 * Animator, no such float). */
static int nav_locomotion_param(lb_world *w, uint32_t slot, const lb_nav_agent_c *a,
                                lb_nav_agent_state *st, lb_animator_instance **out) {
  if (a->locomotion_param == 0) {
    return -1;
  }
  lb_animator_instance *inst = lb_animator_of_slot(w, slot);
  if (!inst) {
    return -1;
  }
  *out = inst;
  if (st->param_controller != inst->controller || st->param_name != a->locomotion_param) {
    const lb_animator_controller *c = lb_controller_get(w, inst->controller);
    int i = c ? lb_controller_find_param(c, lb_world_name_text(w, a->locomotion_param)) : -1;
    st->param_index = i >= 0 && c->params[i].type == LB_ANIM_PARAM_FLOAT ? i : -1;
    st->param_controller = inst->controller;
    st->param_name = a->locomotion_param;
  }
  return st->param_index;
}

/* The attenuation for Both: slower the more the agent must turn, and near the goal
 * nothing at all when it faces away (no circling round a goal behind it). */
static float nav_both_param(const lb_nav_agent_c *a, float remaining, float angle_deg) {
  float x = angle_deg / 180.0f;
  if (remaining > a->radius) {
    return a->base_locomotion_param * (1.0f - x * x * x);
  }
  if (180.0f - angle_deg < 1e-6f) {
    return 0.0f;
  }
  /* 2^(10 (1 - x) - 10) */
  float p = lb_exp((10.0f * (1.0f - x) - 10.0f) * 0.69314718f);
  return a->base_locomotion_param * remaining / a->radius * p;
}

/* One agent's step: what its stages share. */
typedef struct nav_agent_frame {
  lb_world *w;
  uint32_t slot;
  float dt;
  lb_nav_agent_c *a;
  lb_nav_agent_state *st;
  lb_transform_c *t;
  lb_navmesh *mesh;       /* the agent's mesh as this worker queries it (nav_mesh_of_worker) */
  float off;              /* the agent's base offset, read once per step */
  float here[3];          /* the Transform's position less the base offset */
  bool controlled;        /* a CharacterController moves the entity */
  lb_nav_point prev, now; /* the mesh point at the start of the step, and as it moves */
  versor rot;
  float corners[3 * NAV_AGENT_CORNERS];
  lb_nav_path path;
  bool going;  /* has a destination, not stopped, not arrived */
  float angle; /* degrees still to turn toward the steering target */
  /* avoidance changed the velocity: `avoid` (x, z, m/s) replaces the path's, and `pace` is its
   * speed over the preferred speed (0..1, the Both mode's parameter scale) */
  bool avoided;
  float avoid[2], pace;
} nav_agent_frame;

/* The body left the agent's point behind: it crossed a gap in the mesh (a vault over a crate,
 * which Recast carves out, is a hole in it) or something moved it where the walk along the
 * surface cannot follow, which stops at the gap's edge. When the body's nearest mesh point is
 * more than the agent's radius from where that walk stopped, the agent is placed there instead,
 * with no velocity over the step (Unity's NavMeshAgent.Warp, done by the agent itself). Walking
 * keeps the walked point on the body, or, against a wall, off it by the bake's agent radius less
 * the capsule's (a Recast mesh stops that far from walls), so only a real gap gets this far; the
 * horizontal test first keeps the nearest-point query out of ordinary steps. */
static void nav_agent_catch_up(nav_agent_frame *f) {
  float r = f->a->radius;
  float dx = f->now.position[0] - f->here[0], dz = f->now.position[2] - f->here[2];
  if (dx * dx + dz * dz <= r * r) {
    return;
  }
  lb_nav_point near;
  if (lb_nav_mesh_nearest(f->mesh, f->here, &near) != LB_OK || near.polygon == LB_NAV_NO_POLYGON) {
    return;
  }
  float d[3];
  lb_vec3_sub(near.position, f->now.position, d);
  if (lb_vec3_dot(d, d) > r * r) {
    f->prev = near;
    f->now = near;
  }
}

/* Back onto the mesh: placed (or placed again after a Transform write) at the nearest point
 * with no velocity, then the step's start point by the drive mode; an agent whose body crossed
 * a gap in the mesh catches up with it (nav_agent_catch_up). */
static void nav_agent_sync(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  lb_nav_agent_state *st = f->st;
  if (st->mesh != a->nav_mesh || st->point.polygon >= f->mesh->polygon_count) {
    lb_nav_mesh_nearest(f->mesh, f->here, &st->point);
    memcpy(st->rotation, f->t->rotation, sizeof(versor));
    st->mesh = a->nav_mesh;
    st->corridor_count = 0;
  }
  f->prev = st->point;
  f->now = f->prev;
  if (a->drive_mode == LB_NAV_DRIVE_DESTINATION && !f->controlled) {
    /* the agent alone moves the character: this step's root motion is discarded */
    memcpy(f->rot, st->rotation, sizeof(versor));
  } else if (a->drive_mode == LB_NAV_DRIVE_DESTINATION) {
    /* the controller moved it last step (from the agent's request): back onto the mesh from
     * the previous point toward where the controller left it */
    memcpy(f->rot, st->rotation, sizeof(versor));
    lb_nav_mesh_move_along_surface(f->mesh, &f->prev, f->here, &f->now);
    nav_agent_catch_up(f);
    f->prev = f->now;
  } else if (a->drive_mode == LB_NAV_DRIVE_MANUAL) {
    /* the game moved it: the agent follows the Transform along the surface, writes nothing */
    memcpy(f->rot, f->t->rotation, sizeof(versor));
    lb_nav_mesh_move_along_surface(f->mesh, &f->prev, f->here, &f->now);
    nav_agent_catch_up(f);
  } else {
    /* root motion moved the Transform: keep it on the mesh (nextPosition, as a NavMeshAgent's).
     * With a controller root motion reaches the controller (this step's is pending there) and the
     * Transform is where the last move left it; the clamp (zero while the controller kept it on
     * the mesh) is written to the Transform before the controller moves: sent as a movement
     * request it read as the controller's velocity, a mm-scale correction of the last step
     * divided by this step's dt (3,110 m/s in a 1e-6 s step after 1/60 s ones). */
    memcpy(f->rot, f->t->rotation, sizeof(versor));
    lb_nav_mesh_move_along_surface(f->mesh, &f->prev, f->here, &f->now);
    nav_agent_catch_up(f);
    if (f->controlled) {
      f->t->position[0] = f->now.position[0];
      f->t->position[2] = f->now.position[2];
    }
  }
}

/* The kept corridor from the agent's polygon, when it still serves: planned for this destination,
 * younger than NAV_AGENT_REPLAN, and the agent is on one of its first polygons (those behind it
 * are dropped). False: plan. */
static bool nav_agent_follow(nav_agent_frame *f) {
  lb_nav_agent_state *st = f->st;
  uint32_t n = st->corridor_count;
  if (n == 0 || memcmp(st->corridor_goal, f->a->destination, sizeof(vec3)) != 0 ||
      st->corridor_age + f->dt >= NAV_AGENT_REPLAN) {
    return false;
  }
  uint32_t look = n < NAV_AGENT_LOOKAHEAD ? n : NAV_AGENT_LOOKAHEAD, i = 0;
  while (i < look && st->corridor[i] != f->now.polygon) {
    ++i;
  }
  if (i == look) {
    return false; /* off the corridor (avoidance, a vault, a push): plan from where it is */
  }
  if (i > 0) {
    memmove(st->corridor, st->corridor + i, (n - i) * sizeof(uint32_t));
    st->corridor_count = n -= i;
  }
  st->corridor_age += f->dt;
  lb_nav_mesh_pull(f->mesh, st->corridor, n, &f->now, &st->corridor_end, &f->path);
  return true;
}

/* A new plan (A* and string pull); a complete one whose corridor fits is kept for the next steps
 * (a partial one is planned again every step: the goal may become reachable). */
static void nav_agent_plan(nav_agent_frame *f) {
  lb_nav_agent_state *st = f->st;
  lb_nav_mesh_find_path(f->mesh, f->now.position, f->a->destination, &f->path);
  uint32_t n = f->path.polygon_count;
  st->corridor_count = 0;
  if (f->path.status == LB_NAV_PATH_COMPLETE && n <= NAV_AGENT_CORRIDOR) {
    memcpy(st->corridor, f->mesh->corridor, n * sizeof(uint32_t));
    st->corridor_count = n;
    st->corridor_age = 0.0f;
    st->corridor_end = f->path.end;
    memcpy(st->corridor_goal, f->a->destination, sizeof(vec3));
  }
}

/* The path from where the agent is: status, remaining distance, steering target, arrival. */
static void nav_agent_path(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  f->path = (lb_nav_path){.points = f->corners, .point_capacity = NAV_AGENT_CORNERS};
  f->going = a->has_destination && !a->stopped;
  a->path_status = 0;
  a->arrived = 0;
  a->remaining_distance = 0.0f;
  memcpy(a->steering_target, f->now.position, sizeof(vec3));
  if (f->going) {
    if (!nav_agent_follow(f)) {
      nav_agent_plan(f);
    }
    a->path_status = f->path.status == LB_NAV_PATH_COMPLETE ? 1u : 2u;
    a->remaining_distance = f->path.length;
    memcpy(a->steering_target, f->path.point_count > 1 ? f->corners + 3 : f->path.end.position,
           sizeof(vec3));
    if (f->path.length <= a->stopping_distance) {
      a->arrived = 1;
      f->going = false;
    }
  }
}

/* Turning toward the steering target: at turningSpeed, never past it (no Lerp/Slerp); in
 * Manual only the angle is reported. */
static void nav_agent_turn(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  f->angle = 0.0f;
  /* an arrived Both agent still turns to step aside when avoidance asks it to */
  bool aside = a->drive_mode == LB_NAV_DRIVE_BOTH && f->avoided;
  if ((f->going || aside) && a->drive_mode != LB_NAV_DRIVE_ROOT_MOTION) {
    float dx = a->steering_target[0] - f->now.position[0];
    float dz = a->steering_target[2] - f->now.position[2];
    if (f->avoided && f->avoid[0] * f->avoid[0] + f->avoid[1] * f->avoid[1] > 1e-6f) {
      dx = f->avoid[0]; /* steer where avoidance goes (Both: root motion takes it there) */
      dz = f->avoid[1];
    }
    if (dx * dx + dz * dz > 1e-12f) {
      float delta = nav_wrap_pi(lb_atan2(dx, dz) - nav_facing_yaw(f->rot));
      f->angle = delta * NAV_DEG;
      float max = a->turning_speed / NAV_DEG * f->dt;
      float turn = delta > max ? max : delta < -max ? -max : delta;
      if (turn != 0.0f && a->drive_mode != LB_NAV_DRIVE_MANUAL) {
        vec3 up = {0.0f, 1.0f, 0.0f};
        versor q, r;
        lb_quat_from_axis_angle(up, turn, q);
        lb_quat_mul(q, f->rot, r);
        lb_quat_normalize(r);
        memcpy(f->rot, r, sizeof(versor));
      }
    }
  }
  a->turn_angle = f->angle < -180.0f ? -180.0f : f->angle > 180.0f ? 180.0f : f->angle;
}

/* NavDestination: one step along the path, on the surface (or, with a controller, the step's
 * displacement as the controller's request). */
static void nav_agent_advance(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  float step = a->movement_speed * f->dt;
  float target[3];
  nav_along(f->corners, f->path.point_count, step < f->path.length ? step : f->path.length, target);
  lb_nav_point moved;
  lb_nav_mesh_move_along_surface(f->mesh, &f->now, target, &moved);
  if (f->controlled) {
    /* the step's displacement along the path as the controller's request: across from
     * the Transform (so an offset the controller left is taken back), down with the mesh
     * (up slopes and steps are the controller's own) */
    float dy = moved.position[1] - f->now.position[1];
    float d[3] = {moved.position[0] - f->here[0], dy < 0.0f ? dy : 0.0f,
                  moved.position[2] - f->here[2]};
    nav_agent_request(f->w, f->slot, f->st, d);
  }
  f->now = moved;
}

/* NavDestination with avoidance: one step at the avoiding velocity, on the surface (its walls are
 * the static obstacles), or as the controller's request. */
static void nav_agent_advance_avoiding(nav_agent_frame *f) {
  float target[3] = {f->now.position[0] + f->avoid[0] * f->dt, f->now.position[1],
                     f->now.position[2] + f->avoid[1] * f->dt};
  lb_nav_point moved;
  lb_nav_mesh_move_along_surface(f->mesh, &f->now, target, &moved);
  if (f->controlled) {
    float dy = moved.position[1] - f->now.position[1];
    float d[3] = {moved.position[0] - f->here[0], dy < 0.0f ? dy : 0.0f,
                  moved.position[2] - f->here[2]};
    nav_agent_request(f->w, f->slot, f->st, d);
  }
  f->now = moved;
}

/* Whether the agent steers by avoidance this step: on, with a destination, not stopped. */
static bool nav_agent_avoids(const nav_agent_frame *f) {
  const lb_nav_agent_c *a = f->a;
  return a->avoidance && a->has_destination && !a->stopped && f->dt > 0.0f;
}

/* What avoidance saw, kept for lb_world_nav_avoidance: the neighbours as entities (a neighbour
 * despawned since reads as a stale handle). */
static void nav_agent_keep_avoid(nav_agent_frame *f, const lb_nav_avoid *io) {
  lb_nav_agent_state *st = f->st;
  st->near_count = io->count;
  for (uint32_t k = 0; k < io->count; ++k) {
    st->near[k] = lb_entity_of_slot(f->w, io->near[k]);
  }
}

/* Local avoidance (nav_avoid.c): the desired velocity against the neighbours;
 * when it changes, desiredVelocity reports the new one and the frame steers by it. */
static void nav_agent_avoid(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  f->avoided = false;
  f->pace = 1.0f;
  a->neighbours = 0;
  memcpy(f->st->preferred, a->desired_velocity, sizeof(vec3));
  f->st->near_count = 0;
  if (!nav_agent_avoids(f)) {
    return;
  }
  lb_nav_avoid io = {.slot = f->slot,
                     .pref = {a->desired_velocity[0], a->desired_velocity[2]},
                     .max_speed = a->movement_speed,
                     .dt = f->dt};
  lb_nav_crowd_avoid(f->w, &io);
  a->neighbours = io.count;
  nav_agent_keep_avoid(f, &io);
  f->avoid[0] = io.vel[0];
  f->avoid[1] = io.vel[1];
  const float *pref = io.pref;
  if (f->avoid[0] == pref[0] && f->avoid[1] == pref[1]) {
    return;
  }
  f->avoided = true;
  float p2 = pref[0] * pref[0] + pref[1] * pref[1];
  float v2 = f->avoid[0] * f->avoid[0] + f->avoid[1] * f->avoid[1];
  f->pace = p2 > 0.0f ? lb_sqrt(v2 / p2) : 1.0f;
  f->pace = f->pace > 1.0f ? 1.0f : f->pace;
  a->desired_velocity[0] = f->avoid[0];
  a->desired_velocity[2] = f->avoid[1];
  if (p2 > 0.0f) {
    a->desired_velocity[1] *= f->pace; /* the slope's rise at the new speed */
  }
}

/* The velocity the agent wants: toward the steering target at movementSpeed, no further
 * than the path's end in this step (Unity's desiredVelocity, without avoidance). */
static void nav_agent_desired(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  memset(a->desired_velocity, 0, sizeof(vec3));
  float d[3];
  lb_vec3_sub(a->steering_target, f->now.position, d);
  float len = lb_vec3_length(d);
  if (!f->going || !(len > 1e-6f)) {
    return;
  }
  float speed = a->movement_speed;
  if (f->dt > 0.0f && a->remaining_distance < speed * f->dt) {
    speed = a->remaining_distance / f->dt;
  }
  lb_vec3_scale(d, speed / len, a->desired_velocity);
}

/* The locomotion value into the Animator parameter while the agent owns it (written
 * undamped, as played: it changes smoothly); the first step it no longer does, the
 * parameter is left at rest unless the game wrote it since. */
static void nav_agent_write_param(nav_agent_frame *f, float value) {
  lb_nav_agent_state *st = f->st;
  bool owns = nav_agent_owns(f->w, f->slot, f->a);
  if (!owns && !st->owned) {
    return;
  }
  lb_animator_instance *inst = NULL;
  int i = nav_locomotion_param(f->w, f->slot, f->a, st, &inst);
  if (i >= 0 && owns) {
    lb_animator_param_set_now(inst, (uint32_t)i, value);
    st->written = value;
  } else if (i >= 0 && inst->params[i] == st->written) {
    lb_animator_param_set_now(inst, (uint32_t)i, 0.0f);
  }
  st->owned = owns && i >= 0;
}

/* The Both mode's locomotion value. On the path: attenuated by the turn (nav_both_param). Avoiding
 * (on the way, or arrived and stepping aside): the avoiding velocity's part along where the body
 * faces after this step's turn, so root motion walks no further toward a neighbour than the
 * velocity avoidance chose allows (the speed the whole velocity asked for, walked along a facing
 * still turning, carried agents into each other and crowds locked: docs/navigation.md); within
 * a radius of the goal, the path's attenuation times avoidance's pace. */
static float nav_both_value(const nav_agent_frame *f) {
  const lb_nav_agent_c *a = f->a;
  float angle = f->angle < 0.0f ? -f->angle : f->angle;
  if (!f->avoided) {
    return nav_both_param(a, a->remaining_distance, angle);
  }
  if (f->going && a->remaining_distance <= a->radius) {
    return nav_both_param(a, a->remaining_distance, angle) * f->pace;
  }
  vec3 z = {0.0f, 0.0f, 1.0f}, facing;
  lb_quat_rotate(f->rot, z, facing);
  float along = facing[0] * f->avoid[0] + facing[2] * f->avoid[1];
  if (!(along > 0.0f) || !(a->movement_speed > 0.0f)) {
    return 0.0f;
  }
  return a->base_locomotion_param * along / a->movement_speed;
}

/* The velocity over the step and the locomotion value (in Manual the value the game may set
 * for desiredVelocity), written to the Animator parameter while the agent owns it. */
static void nav_agent_locomotion(nav_agent_frame *f) {
  lb_nav_agent_c *a = f->a;
  float value = 0.0f;
  /* Under root motion with a controller the agent sees, this step, where the controller's
   * move of the last step left the body: that move's dt is the time it took (the same bits
   * while the dt does not change; a game changing dt is not told 1,000x the speed). */
  bool lagging = f->controlled &&
                 (a->drive_mode == LB_NAV_DRIVE_BOTH || a->drive_mode == LB_NAV_DRIVE_ROOT_MOTION);
  float base = lagging && f->st->last_dt > 0.0f ? f->st->last_dt : f->dt;
  float inv_dt = f->dt > 0.0f ? 1.0f / base : 0.0f;
  for (int c = 0; c < 3; ++c) {
    a->velocity[c] = (f->now.position[c] - f->prev.position[c]) * inv_dt;
  }
  float speed = 0.0f;
  if (a->drive_mode == LB_NAV_DRIVE_DESTINATION) {
    speed = lb_vec3_length(a->velocity);
  } else if (a->drive_mode == LB_NAV_DRIVE_MANUAL) {
    speed = lb_vec3_length(a->desired_velocity);
  }
  if (a->drive_mode == LB_NAV_DRIVE_BOTH && (f->going || f->avoided)) {
    value = nav_both_value(f);
  } else if (a->movement_speed > 0.0f) {
    value = a->base_locomotion_param * speed / a->movement_speed;
  }
  a->locomotion_value = value;
  f->st->planned = a->drive_mode == LB_NAV_DRIVE_BOTH && (f->going || f->avoided);
  nav_agent_write_param(f, value);
}

/* The agent's point and rotation kept; the Transform written (its position only when no
 * controller moves the entity; nothing in Manual). */
static void nav_agent_store(nav_agent_frame *f) {
  lb_nav_agent_state *st = f->st;
  lb_transform_c *t = f->t;
  st->point = f->now;
  st->last_dt = f->dt;
  memcpy(st->rotation, f->rot, sizeof(versor));
  memcpy(f->a->next_position, f->now.position, sizeof(vec3));
  if (f->a->drive_mode == LB_NAV_DRIVE_MANUAL) {
    return;
  }
  if (!f->controlled) {
    /* A mesh point (or its baseOffset) beyond the supported world extent would leave the
     * Transform's schema range and make every later write of it fail: the position stops at
     * the edge, the agent keeps its mesh point. */
    float off = f->off;
    t->position[0] = lb_clamp(f->now.position[0], -LB_WORLD_EXTENT, LB_WORLD_EXTENT);
    t->position[1] = lb_clamp(f->now.position[1] + off, -LB_WORLD_EXTENT, LB_WORLD_EXTENT);
    t->position[2] = lb_clamp(f->now.position[2], -LB_WORLD_EXTENT, LB_WORLD_EXTENT);
  }
  memcpy(t->rotation, f->rot, sizeof(versor));
}

/* One agent: sync onto the mesh -> path -> desired velocity -> avoidance -> turn -> advance ->
 * locomotion -> store. */
static void nav_agent_step(lb_world *w, uint32_t slot, uint32_t worker, void *context) {
  nav_agent_frame f = {.w = w, .slot = slot, .dt = *(const float *)context};
  f.a = lb_component_ptr(w, slot, LB_NAV_AGENT);
  f.st = lb_component_state(w, slot, LB_NAV_AGENT);
  f.t = nav_agent_transform(w, slot, f.a);
  lb_navmesh *m = lb_navmesh_get(w, f.a->nav_mesh);
  if (!f.t || !m) {
    return;
  }
  f.mesh = nav_mesh_of_worker(m, worker);
  float off = f.off = f.a->base_offset;
  f.here[0] = f.t->position[0];
  f.here[1] = f.t->position[1] - off;
  f.here[2] = f.t->position[2];
  /* With a CharacterController (a module that takes the entity's moves) the controller moves
   * the character: the agent never writes the position, it re-syncs its mesh point from where
   * the controller left the Transform and sends its own movement as a request. */
  static const float zero[3] = {0.0f, 0.0f, 0.0f};
  f.controlled = nav_agent_request(w, slot, f.st, zero);
  nav_agent_sync(&f);
  nav_agent_path(&f);
  nav_agent_desired(&f);
  nav_agent_avoid(&f);
  nav_agent_turn(&f);
  if (f.a->drive_mode == LB_NAV_DRIVE_DESTINATION && f.avoided) {
    nav_agent_advance_avoiding(&f);
  } else if (f.a->drive_mode == LB_NAV_DRIVE_DESTINATION && f.going) {
    nav_agent_advance(&f);
  }
  nav_agent_locomotion(&f);
  nav_agent_store(&f);
}

/* The crowd is taken first, every agent as it stands before any moves (avoidance is
 * reciprocal), then the agents step in parallel: each reads the crowd and its own state, queries
 * its mesh through its worker's header (scratch of its own) and writes only its own agent,
 * Transform, Animator parameter and movement request. */
static void nav_system_nav_agents(lb_world *w, float dt) {
  lb_nav_crowd_build(w);
  lb_parallel_each(w, LB_NAV_AGENT, nav_agent_step, &dt);
}

lb_result lb_world_nav_avoidance(lb_world *w, lb_entity e, lb_nav_agent_avoidance *out) {
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  int s = lb_slot_checked(w, e, "nav_avoidance");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  char lbl[48];
  if (!lb_slot_has(w, (uint32_t)s, LB_NAV_AGENT)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "nav_avoidance: %s has no NavAgent",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  const lb_nav_agent_state *st = lb_component_state(w, (uint32_t)s, LB_NAV_AGENT);
  memset(out, 0, sizeof *out);
  out->neighbour_count = st->near_count;
  memcpy(out->neighbours, st->near, st->near_count * sizeof(lb_entity));
  memcpy(out->preferred_velocity, st->preferred, sizeof out->preferred_velocity);
  return LB_OK;
}

const lb_component_def lb_nav_components[LB_NAV_COMPONENT_COUNT] = {
    {.type = LB_NAV_AGENT,
     .info = &lb_nav_agent_info,
     .state_size = sizeof(lb_nav_agent_state),
     .stage = nav_agent_stage,
     .commit = nav_agent_commit,
     .remove = nav_agent_remove}};

const lb_system_def lb_nav_systems[LB_NAV_SYSTEM_COUNT] = {
    {LB_PHASE_MOVE, 10, "nav.agents", nav_system_nav_agents}};

/* The velocity the crowd sees for an agent (lb_nav_crowd_build, before any agent moves: the last
 * step's values). A Both agent steered by its path or by avoidance: its desiredVelocity, the
 * velocity it chose and turns and paces toward, as ORCA assumes of every agent. Its measured
 * velocity is the root motion's, a step behind that choice, along a facing still turning and
 * swaying with the gait (idle's sway alone points it anywhere at 0.03 m/s): read so, 23 of
 * npc-crowd's 48 Both agents stood locked in counter-flow (docs/navigation.md, Avoidance, "Both
 * and root motion"). Any other agent: its velocity over the last step. */
void lb_nav_agent_crowd_velocity(const lb_world *w, uint32_t slot, const lb_nav_agent_c *a,
                                 float out[2]) {
  const lb_nav_agent_state *st = lb_component_state(w, slot, LB_NAV_AGENT);
  const float *v = st->planned ? a->desired_velocity : a->velocity;
  out[0] = v[0];
  out[1] = v[2];
}
