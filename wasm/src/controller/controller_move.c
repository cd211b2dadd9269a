/* The controller's move: size change, depenetration, slide, step, ground snap
 * (controller.h). Every query is a collide module capsule cast or ray; the math is + - * /
 * and sqrt in a fixed order (math/'s lb_cos once, for the slope limit), so the same request
 * gives the same bits everywhere. */
#include "../collide/collide_internal.h"
#include "../math/vec3_inline.h"
#include "controller_internal.h"

#include "../base/bytes.h"

#include <string.h>

#define CTL_EPS 1.0e-6f /* shorter motions are not cast */
/* Controllers whose capsule axes are closer than this across are coincident: the queries'
 * normal between them is a fixed fallback, the same for both, so they would move together. */
#define CTL_COINCIDENT 1.0e-5f
#define CTL_S 0.70710678f /* sqrt(1/2) */
/* Beyond the request, a step up and the snap down: room in the move's region (ctl_region) for
 * the pushes out of contacts and the slide's turns, so the queries stay inside it. */
#define CTL_REGION_SLACK 0.05f

/* Horizontal unit directions a coincident pair of controllers separates along: a fixed axis
 * turned 45 degrees per slot of the pair's higher slot (no randomness: the same on every
 * target and every run). */
static const float ctl_sep_dirs[8][2] = {{1.0f, 0.0f},    {CTL_S, CTL_S}, {0.0f, 1.0f},
                                         {-CTL_S, CTL_S}, {-1.0f, 0.0f},  {-CTL_S, -CTL_S},
                                         {0.0f, -1.0f},   {CTL_S, -CTL_S}};

typedef struct ctl_ctx {
  lb_world *w;
  uint32_t slot;      /* the controller's entity slot */
  float sep_budget;   /* metres left this move for pushes out of other controllers */
  lb_entity sep_last; /* the controller contact pushed out of this move, if any */
  lb_collide_filter filter;
  float r, half; /* radius, core half-length (height / 2 - radius) */
  float c[3];    /* capsule centre from the position */
  float foot;    /* foot (capsule bottom) below the position: c.y - height / 2 */
  float lift;    /* how far a requested size still waiting for room reaches below foot */
  float skin, step, cos_slope, snap;
  float ground_foot;  /* foot height where the move started (step rule) */
  bool blocked;       /* the slide met a contact it may not climb */
  uint32_t hit_count; /* contacts this attempt */
  float normals[LB_CONTROLLER_HITS][3];
  lb_entity entities[LB_CONTROLLER_HITS];
  const cl_region *region; /* the colliders near the move (ctl_region) */
  /* the foot-level slide's first cast, made before the depenetration (ctl_first_cast) */
  bool first_made, first_hit;
  lb_collide_hit first;
  ctl_trace *trace; /* benches only: where the move's queries and stage starts go */
} ctl_ctx;

static float ctl_v_sqrt(float x) {
  return lb_sqrt(x);
}

static void ctl_core_of(const ctl_ctx *cx, const float *p, float *a, float *b) {
  for (int i = 0; i < 3; ++i) {
    a[i] = b[i] = p[i] + cx->c[i];
  }
  a[1] -= cx->half;
  b[1] += cx->half;
}

static void ctl_trace_query(ctl_ctx *cx, const float *a, const float *b, float r, const float *dir,
                            float dist) {
  ctl_trace *tr = cx->trace;
  if (tr && tr->queries < CTL_TRACE_QUERIES) {
    ctl_query *q = &tr->q[tr->queries++];
    memcpy(q->a, a, sizeof q->a);
    memcpy(q->b, b, sizeof q->b);
    memcpy(q->dir, dir, sizeof q->dir);
    q->r = r;
    q->dist = dist;
  }
}

static bool ctl_cast(ctl_ctx *cx, const float *p, const float *dir, float dist, lb_collide_hit *h) {
  float a[3], b[3];
  ctl_core_of(cx, p, a, b);
  ctl_trace_query(cx, a, b, cx->r, dir, dist);
  if (cl_region_capsule_cast(cx->w, cx->region, a, b, cx->r, dir, dist, &cx->filter, h) != LB_OK) {
    h->entity = LB_NULL_ENTITY; /* inputs beyond the query limits: nothing is hit */
  }
  return h->entity != LB_NULL_ENTITY;
}

static void ctl_record(ctl_ctx *cx, const lb_collide_hit *h) {
  if (cx->hit_count < LB_CONTROLLER_HITS) {
    memcpy(cx->normals[cx->hit_count], h->normal, sizeof(float) * 3);
    cx->entities[cx->hit_count] = h->entity;
  }
  cx->hit_count++;
}

/* Signed clearance of the capsule core from a contact (point q, normal n): how far the core
 * point nearest q lies out along n. The capsule is clear by that minus the radius. */
static float ctl_core_clearance(const ctl_ctx *cx, const float *p, const lb_collide_hit *h) {
  float a[3], b[3];
  ctl_core_of(cx, p, a, b);
  float y = h->point[1] < a[1] ? a[1] : (h->point[1] > b[1] ? b[1] : h->point[1]);
  float d[3] = {a[0] - h->point[0], y - h->point[1], a[2] - h->point[2]};
  return lb_vec3_dot(d, h->normal);
}

/* The slot of the controller a collider belongs to (on its entity or on the root above it),
 * or -1: a contact with another character, which moves too. */
static int32_t ctl_controller_of(const ctl_ctx *cx, lb_entity e) {
  int32_t s = lb_slot_of(cx->w, e);
  while (s >= 0 && cx->w->parent[s] >= 0) {
    s = cx->w->parent[s];
  }
  if (s < 0 || (uint32_t)s == cx->slot ||
      !lb_slot_has(cx->w, (uint32_t)s, LB_CHARACTER_CONTROLLER)) {
    return -1;
  }
  return s;
}

/* Horizontal unit direction out of another controller's collider (entity e, controller slot
 * other): across from the collider's centre as the queries see it, or, when the capsule axis
 * is coincident with it, the pair's fixed direction (the lower slot one way, the higher the
 * other), so the two never pick the same one. */
static void ctl_separation_dir(const ctl_ctx *cx, const float *p, lb_entity e, uint32_t other,
                               float *n) {
  vec3 lo, hi;
  float dx = 0.0f, dz = 0.0f;
  if (lb_world_collider_bounds(cx->w, e, lo, hi) == LB_OK) {
    dx = p[0] + cx->c[0] - (lo[0] + hi[0]) * 0.5f;
    dz = p[2] + cx->c[2] - (lo[2] + hi[2]) * 0.5f;
  }
  float l = ctl_v_sqrt(dx * dx + dz * dz);
  if (l > CTL_COINCIDENT) {
    n[0] = dx / l;
    n[2] = dz / l;
  } else {
    const float *d = ctl_sep_dirs[(cx->slot > other ? cx->slot : other) & 7u];
    float sign = cx->slot > other ? 1.0f : -1.0f;
    n[0] = d[0] * sign;
    n[2] = d[1] * sign;
  }
  n[1] = 0.0f;
}

/* The length of a slide's remaining motion rem, and when it is cast (longer than CTL_EPS) its
 * direction (unit). */
static float ctl_slide_dir(const float *rem, float *dir) {
  float len = ctl_v_sqrt(lb_vec3_dot(rem, rem));
  if (len > CTL_EPS) {
    for (int k = 0; k < 3; ++k) {
      dir[k] = rem[k] / len;
    }
  }
  return len;
}

/* 2a. A capsule that touches something is hit at distance 0 by a cast from where it stands in
 * any direction (the casts test the start first, whatever their length), so when the
 * foot-level slide's first cast (made here, kept for the slide) is clear at 0, the
 * depenetration's own cast would find nothing: true, and it is not made. A jump's slide, or none,
 * makes no such cast. */
static bool ctl_first_cast(ctl_ctx *cx, const float *p, const float *delta) {
  const float horiz[3] = {delta[0], 0.0f, delta[2]};
  float dir[3];
  float len = delta[1] > 0.0f ? 0.0f : ctl_slide_dir(horiz, dir);
  if (!(len > CTL_EPS)) {
    return false;
  }
  cx->first_hit = ctl_cast(cx, p, dir, len, &cx->first);
  cx->first_made = !(cx->first_hit && cx->first.distance == 0.0f);
  return cx->first_made;
}

/* Pushes the capsule out of whatever it touches, skin clear (fixed passes). Out of another
 * controller it goes across, half the way (that controller's own move takes the other half in
 * the same Move phase, seeing this one where the step began), at most sep_budget in all, and
 * once per move. */
static void ctl_depenetrate(ctl_ctx *cx, float *p) {
  static const float up[3] = {0.0f, 1.0f, 0.0f};
  for (int i = 0; i < LB_CONTROLLER_ITERATIONS; ++i) {
    lb_collide_hit h;
    if (!ctl_cast(cx, p, up, 0.0f, &h)) {
      return;
    }
    float push = cx->r + cx->skin - ctl_core_clearance(cx, p, &h);
    if (!(push > 0.0f)) {
      push = cx->skin;
    }
    float n[3] = {h.normal[0], h.normal[1], h.normal[2]};
    int32_t other = ctl_controller_of(cx, h.entity);
    if (other >= 0) {
      if (h.entity == cx->sep_last || !(cx->sep_budget > 0.0f)) {
        return; /* its share is done (or dt is 0): the rest waits for the next step */
      }
      cx->sep_last = h.entity;
      ctl_separation_dir(cx, p, h.entity, (uint32_t)other, n);
      push *= 0.5f;
      push = push < cx->sep_budget ? push : cx->sep_budget;
      cx->sep_budget -= push;
    }
    for (int k = 0; k < 3; ++k) {
      p[k] += n[k] * push;
    }
  }
}

/* Characters are not floors: another controller's capsule is never walkable (a slide meets it
 * as a wall, a step never lands on it), so a crowd does not climb onto its own heads. */
static bool ctl_walkable(const ctl_ctx *cx, const lb_collide_hit *h) {
  return h->normal[1] >= cx->cos_slope && h->point[1] <= cx->ground_foot + cx->step &&
         ctl_controller_of(cx, h->entity) < 0;
}

/* The plane a contact blocks: its normal when walkable, else its horizontal part (a wall for
 * the slide: no climbing). Returns false for a horizontal-less non-walkable contact, which
 * then blocks along its own normal. */
static void ctl_blocking_plane(const ctl_ctx *cx, const lb_collide_hit *h, float *n) {
  if (ctl_walkable(cx, h)) {
    memcpy(n, h->normal, sizeof(float) * 3);
    return;
  }
  float hx = h->normal[0], hz = h->normal[2];
  float l = ctl_v_sqrt(hx * hx + hz * hz);
  if (l > 1.0e-4f) {
    n[0] = hx / l;
    n[1] = 0.0f;
    n[2] = hz / l;
  } else {
    memcpy(n, h->normal, sizeof(float) * 3);
  }
}

/* A slide's cast: the one ctl_first_cast made when there is one (the first of the foot-level
 * slide, from the same point), else a new one. */
static bool ctl_slide_cast(ctl_ctx *cx, const float *p, const float *dir, float len,
                           lb_collide_hit *h) {
  if (cx->first_made) {
    cx->first_made = false;
    *h = cx->first;
    return cx->first_hit;
  }
  return ctl_cast(cx, p, dir, len, h);
}

/* Collide-and-slide of p by m (fixed iterations). */
static void ctl_slide(ctl_ctx *cx, float *p, const float *m) {
  float rem[3] = {m[0], m[1], m[2]};
  float prev[3] = {0.0f, 0.0f, 0.0f};
  bool have_prev = false;
  for (int i = 0; i < LB_CONTROLLER_ITERATIONS; ++i) {
    float dir[3];
    float len = ctl_slide_dir(rem, dir);
    if (!(len > CTL_EPS)) {
      return;
    }
    lb_collide_hit h;
    if (!ctl_slide_cast(cx, p, dir, len, &h)) {
      for (int k = 0; k < 3; ++k) {
        p[k] += rem[k];
      }
      return;
    }
    ctl_record(cx, &h);
    float n[3];
    if (!ctl_walkable(cx, &h)) {
      cx->blocked = true;
    }
    ctl_blocking_plane(cx, &h, n);
    /* Up to skinWidth (along the contact normal) short of the contact: no push back, so
     * slopes are walked at the projected speed. */
    float c = -lb_vec3_dot(dir, h.normal);
    float go = h.distance;
    if (c > 0.0f) {
      go = h.distance - cx->skin / c;
      go = go < 0.0f ? 0.0f : go;
    }
    for (int k = 0; k < 3; ++k) {
      p[k] += dir[k] * go;
    }
    float left = len - go;
    float r2[3] = {dir[0] * left, dir[1] * left, dir[2] * left};
    float into = lb_vec3_dot(r2, n);
    if (into < 0.0f) {
      if (ctl_walkable(cx, &h)) {
        /* Walkable ground ahead: up (or down) it at the same horizontal speed. */
        r2[1] = -(n[0] * r2[0] + n[2] * r2[2]) / n[1];
      } else {
        for (int k = 0; k < 3; ++k) {
          r2[k] -= n[k] * into;
        }
      }
    }
    if (have_prev && lb_vec3_dot(r2, prev) < 0.0f) {
      /* Against the previous plane too: along the crease of both. */
      float cr[3] = {prev[1] * n[2] - prev[2] * n[1], prev[2] * n[0] - prev[0] * n[2],
                     prev[0] * n[1] - prev[1] * n[0]};
      float cl = ctl_v_sqrt(lb_vec3_dot(cr, cr));
      if (cl > 1.0e-4f) {
        for (int k = 0; k < 3; ++k) {
          cr[k] /= cl;
        }
        float s = lb_vec3_dot(r2, cr);
        for (int k = 0; k < 3; ++k) {
          r2[k] = cr[k] * s;
        }
      } else {
        return; /* opposite planes: stuck */
      }
    }
    memcpy(rem, r2, sizeof rem);
    memcpy(prev, n, sizeof prev);
    have_prev = true;
  }
}

/* A step edge: the surface just beyond the contact (away from the capsule's axis, on the step)
 * is walkable. */
static bool ctl_edge_walkable(ctl_ctx *cx, const float *p, const lb_collide_hit *h) {
  float dx = p[0] + cx->c[0] - h->point[0], dz = p[2] + cx->c[2] - h->point[2];
  float l = ctl_v_sqrt(dx * dx + dz * dz);
  if (!(l > 1.0e-4f)) {
    return false;
  }
  float inset = cx->skin + 0.01f;
  float o[3] = {h->point[0] - dx / l * inset, h->point[1] + 0.05f, h->point[2] - dz / l * inset};
  static const float down[3] = {0.0f, -1.0f, 0.0f};
  lb_collide_hit g;
  ctl_trace_query(cx, o, o, 0.0f, down, 0.1f);
  if (cl_region_raycast(cx->w, cx->region, o, down, 0.1f, &cx->filter, &g) != LB_OK ||
      g.entity == LB_NULL_ENTITY || ctl_controller_of(cx, g.entity) >= 0) {
    return false;
  }
  return g.normal[1] >= cx->cos_slope;
}

/* Over another controller's capsule: across, away from its axis, by what is left of the
 * separation budget (at most the distance that clears it), keeping the requested fall. */
static void ctl_slide_off(ctl_ctx *cx, float *p, const lb_collide_hit *h, float fall) {
  int32_t other = ctl_controller_of(cx, h->entity);
  float n[3];
  ctl_separation_dir(cx, p, h->entity, (uint32_t)other, n);
  float push = 2.0f * cx->r < cx->sep_budget ? 2.0f * cx->r : cx->sep_budget;
  cx->sep_budget -= push;
  p[0] += n[0] * push;
  p[2] += n[2] * push;
  p[1] -= fall;
  ctl_record(cx, h);
}

typedef struct ctl_land {
  bool hit, walkable, too_high;
  bool held;  /* started inside another controller: no height change, grounded as before */
  float rise; /* foot height after - before */
} ctl_land;

/* Casts down by dist and lands skin clear of what it hits, or moves down by fall (<= dist)
 * when nothing is within dist. */
static ctl_land ctl_landing(ctl_ctx *cx, float *p, float dist, float fall, float start_y) {
  static const float down[3] = {0.0f, -1.0f, 0.0f};
  ctl_land out = {false, false, false, false, 0.0f};
  lb_collide_hit h;
  if (dist > 0.0f && ctl_cast(cx, p, down, dist, &h)) {
    if (h.distance == 0.0f && ctl_controller_of(cx, h.entity) >= 0) {
      /* Still inside another controller (they separate at a bounded speed): the cast sees
       * nothing below through it, so neither a snap (which would lift the capsule by the skin
       * over a side normal every step) nor a fall. */
      out.held = true;
      ctl_record(cx, &h);
      return out;
    }
    if (ctl_controller_of(cx, h.entity) >= 0) {
      /* another character below: not ground; off it sideways at the separation speed */
      ctl_slide_off(cx, p, &h, fall);
      out.rise = p[1] - start_y;
      return out;
    }
    float ny = h.normal[1] > 0.2f ? h.normal[1] : 0.2f;
    p[1] += -(h.distance - cx->lift) + cx->skin / ny;
    out.hit = true;
    /* Ground whose contact is higher than a step above the start is never stood on: the
     * capsule's rounded bottom would otherwise ride up edges taller than stepOffset. */
    out.too_high = h.point[1] > cx->ground_foot + cx->step;
    out.walkable = h.normal[1] >= cx->cos_slope || ctl_edge_walkable(cx, p, &h);
    ctl_record(cx, &h);
  } else {
    p[1] -= fall;
  }
  out.rise = p[1] - start_y;
  return out;
}

/* The move's context from the component: radius, skin, step, snap, slope, the filter and the
 * separation budget of this step. */
static void ctl_ctx_init(ctl_ctx *cx, lb_world *w, uint32_t slot,
                         const lb_character_controller_c *cc, float dt) {
  memset(cx, 0, sizeof *cx);
  cx->w = w;
  cx->slot = slot;
  cx->sep_budget = dt > 0.0f ? LB_CONTROLLER_SEPARATION_SPEED * dt : 0.0f;
  cx->filter = lb_collide_default_filter();
  cx->filter.layers = cc->layers;
  cx->filter.exclude = lb_entity_of_slot(w, slot);
  cx->r = cc->radius;
  cx->skin = cc->skin_width;
  cx->step = cc->step_offset;
  cx->snap = cc->snap_distance;
  cx->cos_slope = lb_cos(cc->slope_limit * 0.017453292519943295f);
  cx->trace = ctl_world_of(w)->trace;
}

/* 0. The colliders near the whole move, found once (cl_region: one walk of the collider tree
 * instead of one per query): the capsule where the move starts, the size in use and the
 * requested one, grown by how far the move may take it (the request, a step up, the snap down,
 * the skin, some slack). Only the speed depends on it: a query that leaves the box walks the
 * tree, with the same answer. */
static void ctl_region(ctl_ctx *cx, const lb_character_controller_c *cc, const ctl_state *st,
                       const float *p, const float *delta, cl_region *rg) {
  const float *ac = st->applied_center, *rc = cc->center;
  float reach = ctl_v_sqrt(lb_vec3_dot(delta, delta)) + cx->step + cx->snap + 4.0f * cx->skin +
                CTL_REGION_SLACK;
  float side = cc->radius + reach;
  float lo[3] = {p[0] + (ac[0] < rc[0] ? ac[0] : rc[0]) - side, 0.0f,
                 p[2] + (ac[2] < rc[2] ? ac[2] : rc[2]) - side};
  float hi[3] = {p[0] + (ac[0] > rc[0] ? ac[0] : rc[0]) + side, 0.0f,
                 p[2] + (ac[2] > rc[2] ? ac[2] : rc[2]) + side};
  float bottom_a = ac[1] - st->applied_height * 0.5f, bottom_r = rc[1] - cc->height * 0.5f;
  float top_a = ac[1] + st->applied_height * 0.5f, top_r = rc[1] + cc->height * 0.5f;
  lo[1] = p[1] + (bottom_a < bottom_r ? bottom_a : bottom_r) - reach;
  hi[1] = p[1] + (top_a > top_r ? top_a : top_r) + reach;
  cl_region_gather(cx->w, lo, hi, cl_rounding_margin(lo, hi, 0.0f), &cx->filter, rg);
  cx->region = rg;
}

/* 1. Size: the requested one when it has room (a cast of the requested capsule finds nothing),
 * then the capsule the move uses. */
static void ctl_apply_size(ctl_ctx *cx, const lb_character_controller_c *cc, ctl_state *st,
                           const float *p) {
  if (cc->height != st->applied_height ||
      !lb_same_bytes(cc->center, st->applied_center, sizeof(vec3))) {
    ctl_ctx probe = *cx;
    probe.half = cc->height * 0.5f - cc->radius;
    memcpy(probe.c, cc->center, sizeof probe.c);
    probe.r = cc->radius + 0.5f * cc->skin_width;
    static const float up[3] = {0.0f, 1.0f, 0.0f};
    lb_collide_hit h;
    if (!ctl_cast(&probe, p, up, 0.0f, &h)) {
      st->applied_height = cc->height;
      memcpy(st->applied_center, cc->center, sizeof st->applied_center);
    }
  }
  cx->half = st->applied_height * 0.5f - cx->r;
  if (cx->half < 0.0f) {
    cx->half = 0.0f; /* radius grew past the applied height: a sphere until the height fits */
  }
  memcpy(cx->c, st->applied_center, sizeof cx->c);
  cx->foot = cx->c[1] - (cx->half + cx->r);
  /* A larger size waiting for room whose bottom is below the applied one's: landing keeps
   * that bottom out of the ground instead, so the size can be taken. (A vault that gave the
   * size back while the feet touched the floor, no skin between, was refused the room; the
   * snap then set the shrunk capsule on the floor, the full one's bottom inside it, for good.) */
  float want_foot = cc->center[1] - cc->height * 0.5f;
  cx->lift = (cc->height != st->applied_height ||
              !lb_same_bytes(cc->center, st->applied_center, sizeof(vec3))) &&
                     want_foot < cx->foot
                 ? cx->foot - want_foot
                 : 0.0f;
}

/* 3b. Blocked by something not walkable: the move again with a step (up, across, down) from
 * `before`, kept (p and *l replaced) when it is allowed and gets further along the request;
 * else the context is as the foot-level move left it. */
static void ctl_try_step(ctl_ctx *cx, float *p, const float *before, const float *horiz, float fall,
                         ctl_land *l) {
  ctl_ctx foot_cx = *cx;
  float foot_p[3] = {p[0], p[1], p[2]};
  float q[3] = {before[0], before[1], before[2]};
  cx->hit_count = 0;
  static const float up[3] = {0.0f, 1.0f, 0.0f};
  lb_collide_hit h;
  float raise = cx->step;
  if (ctl_cast(cx, q, up, raise, &h)) {
    raise = h.distance - cx->skin > 0.0f ? h.distance - cx->skin : 0.0f;
  }
  q[1] += raise;
  ctl_slide(cx, q, horiz);
  ctl_land ls = ctl_landing(cx, q, raise + fall + cx->snap, raise + fall, before[1]);
  bool allowed = !(ls.hit && ls.rise > 1.0e-4f && (!ls.walkable || ls.too_high));
  float gain_step = (q[0] - before[0]) * horiz[0] + (q[2] - before[2]) * horiz[2];
  float gain_foot = (foot_p[0] - before[0]) * horiz[0] + (foot_p[2] - before[2]) * horiz[2];
  if (allowed && raise > 0.0f && gain_step > gain_foot + 1.0e-10f) {
    memcpy(p, q, sizeof q);
    *l = ls;
  } else {
    *cx = foot_cx;
  }
}

/* 3. The requested displacement: upward (a jump, vertical root motion) a plain slide, no step
 * or snap; else across at foot level and down to the ground, with a step when blocked. True
 * when the controller ends grounded. */
static bool ctl_walk(ctl_ctx *cx, const lb_character_controller_c *cc, float *p,
                     const float delta[3]) {
  float horiz[3] = {delta[0], 0.0f, delta[2]};
  float vy = delta[1];
  cx->ground_foot = p[1] + cx->foot;
  float before[3] = {p[0], p[1], p[2]};
  if (vy > 0.0f) {
    ctl_slide(cx, p, delta);
    return false;
  }
  float fall = -vy;
  cx->blocked = false;
  ctl_slide(cx, p, horiz);
  if (cx->trace) {
    memcpy(cx->trace->snap_from, p, sizeof cx->trace->snap_from);
    cx->trace->walked = true;
  }
  ctl_land l = ctl_landing(cx, p, fall + cx->snap, fall, before[1]);
  if (cx->blocked && cx->step > 0.0f) {
    if (cx->trace) {
      memcpy(cx->trace->step_from, p, sizeof cx->trace->step_from);
      cx->trace->stepped = true;
    }
    ctl_try_step(cx, p, before, horiz, fall, &l);
  }
  return l.held ? cc->grounded != 0u : l.hit && l.walkable;
}

/* 4. Outputs: the Transform's position (within the world extent), grounded, velocity, the
 * contacts and the size in use. */
static void ctl_write_outputs(const ctl_ctx *cx, lb_character_controller_c *cc, const ctl_state *st,
                              lb_transform_c *t, const float *p, const float *start, float dt,
                              bool grounded) {
  for (int k = 0; k < 3; ++k) {
    t->position[k] = lb_clamp(p[k], -LB_WORLD_EXTENT, LB_WORLD_EXTENT);
  }
  cc->grounded = grounded ? 1u : 0u;
  for (int k = 0; k < 3; ++k) {
    cc->velocity[k] = dt > 0.0f ? (t->position[k] - start[k]) / dt : 0.0f;
  }
  cc->hit_count = cx->hit_count;
  float(*normals[LB_CONTROLLER_HITS])[3] = {&cc->hit_normal0, &cc->hit_normal1, &cc->hit_normal2};
  lb_entity *ents[LB_CONTROLLER_HITS] = {&cc->hit_entity0, &cc->hit_entity1, &cc->hit_entity2};
  for (uint32_t i = 0; i < LB_CONTROLLER_HITS; ++i) {
    bool have = i < cx->hit_count;
    for (int k = 0; k < 3; ++k) {
      (*normals[i])[k] = have ? cx->normals[i][k] : 0.0f;
    }
    *ents[i] = have ? cx->entities[i] : LB_NULL_ENTITY;
  }
  cc->applied_height = st->applied_height;
  memcpy(cc->applied_center, st->applied_center, sizeof cc->applied_center);
}

/* One controller's move: size -> depenetrate -> walk (slide, step, snap) -> outputs. */
void ctl_move(lb_world *w, uint32_t slot, const float delta[3], float dt) {
  lb_character_controller_c *cc = lb_component_ptr(w, slot, LB_CHARACTER_CONTROLLER);
  ctl_state *st = ctl_state_of(w, slot);
  lb_transform_c *t = lb_component_ptr(w, slot, LB_TRANSFORM);
  ctl_ctx cx;
  ctl_ctx_init(&cx, w, slot, cc, dt);
  float p[3] = {t->position[0], t->position[1], t->position[2]};
  const float start[3] = {p[0], p[1], p[2]};
  if (cx.trace) {
    memset(cx.trace, 0, sizeof *cx.trace);
    memcpy(cx.trace->delta, delta, sizeof cx.trace->delta);
    cx.trace->dt = dt;
  }
  cl_region region;
  ctl_region(&cx, cc, st, p, delta, &region);
  ctl_apply_size(&cx, cc, st, p);
  /* 2. out of anything that moved onto the capsule */
  if (!ctl_first_cast(&cx, p, delta)) {
    ctl_depenetrate(&cx, p);
  }
  cx.hit_count = 0;
  if (cx.trace) {
    memcpy(cx.trace->walk_from, p, sizeof cx.trace->walk_from);
  }
  bool grounded = ctl_walk(&cx, cc, p, delta);
  ctl_write_outputs(&cx, cc, st, t, p, start, dt, grounded);
}

/* The walk's stages again from a traced move's starts, on a context as the move made it (its
 * size applied as it is now, no trace). */
void ctl_stage_run(lb_world *w, uint32_t slot, const ctl_trace *tr, ctl_stage_id stage) {
  if (!tr->walked || (stage == CTL_STAGE_STEP && !tr->stepped)) {
    return;
  }
  const lb_character_controller_c *cc = lb_component_ptr(w, slot, LB_CHARACTER_CONTROLLER);
  ctl_state st = *ctl_state_of(w, slot);
  ctl_ctx cx;
  ctl_ctx_init(&cx, w, slot, cc, tr->dt);
  cx.trace = NULL;
  cl_region region;
  ctl_region(&cx, cc, &st, tr->walk_from, tr->delta, &region);
  ctl_apply_size(&cx, cc, &st, tr->walk_from);
  cx.ground_foot = tr->walk_from[1] + cx.foot;
  float horiz[3] = {tr->delta[0], 0.0f, tr->delta[2]}, fall = -tr->delta[1], p[3];
  if (stage == CTL_STAGE_SLIDE) {
    memcpy(p, tr->walk_from, sizeof p);
    ctl_slide(&cx, p, horiz);
  } else if (stage == CTL_STAGE_SNAP) {
    memcpy(p, tr->snap_from, sizeof p);
    ctl_landing(&cx, p, fall + cx.snap, fall, tr->walk_from[1]);
  } else {
    ctl_land l = {false, false, false, false, 0.0f};
    memcpy(p, tr->step_from, sizeof p);
    ctl_try_step(&cx, p, tr->walk_from, horiz, fall, &l);
  }
}
