/* Vault, part 1: the obstacle probe (module folder wasm/src/vault/).
 *
 * Obstacle detection by sphere casts and rays, as an ozz-style job on the collision queries
 * (limber/collide.h): is it low and short enough to vault, its class, its exact height and
 * depth, and whether the far side has a floor and room for the character.
 *
 * Frame: the character's feet at `character.t`; up is world +Y; forward is the character's
 * +Z turned by its rotation and flattened onto the ground plane. Metres throughout.
 *
 * Height check: a sphere of hand_radius r cast forward from O + up * r, where O is
 * hand_origin in character space. A hit means too tall. Otherwise the sphere steps down one
 * r at a time, up to cast_down_limit times, until a cast hits: an obstacle whose top is
 * between about O.y - r * cast_down_limit and O.y above the feet. No hit at all: a small
 * sphere at the ankles (radius r / 2) tells a low obstacle (step over it) from nothing.
 * Depth check: rays straight down from the height cast's height to one r below the
 * obstacle's top, at the near face (just inside it, as the top ray) + r * (i - 1) along
 * forward (rays, not spheres, so the rule is exact: the sphere's rim grazes the
 * far edge; measured from the near point, not from where the height cast's sphere stopped,
 * which is past the near face when it meets the top edge); the first i (1 ..
 * cast_forward_limit) without a hit means the obstacle ends there: short enough to vault. No
 * miss: too deep to vault, low enough to climb onto (mantle).
 * With the defaults the rule is the vault course's: too tall above hand_origin.y (1.1 m),
 * found down to hand_origin.y + r - r * cast_down_limit - r (0.5 m), vaultable up to
 * r * (cast_forward_limit - 1) deep (0.6 m).
 * Measures (exact to the collision queries' precision): the near face and
 * the top by rays (distance from the feet to the near face along forward; top point and
 * normal at the near face: a ray down through the near point moved into the obstacle by 64
 * float steps of its magnitude, 1.1e-5 m within 1.5 m of the origin, 0.3 mm at 40 m;
 * height = top above the feet), the far face by a ray cast back toward the character
 * (depth = far face - near face along forward). Obstacles from 1 mm deep are measured. A
 * VAULT whose top ray finds no top (a miss, a start inside something, or a hit below the
 * near point: it passed a sheet with no thickness onto the floor) is refused with NO_TOP;
 * for the other classes top, top_normal and height then stay zero.
 * Far side: a ray down at landing_distance past the far face must find a
 * floor at most drop_limit below the feet, and a standing capsule (capsule_radius,
 * capsule_height; radius 0 skips) on that floor must touch nothing, else a vault is refused.
 *
 * Deterministic (the queries are); no allocation. */
#ifndef LIMBER_VAULT_H
#define LIMBER_VAULT_H

#include "limber/base.h"
#include "limber/collide.h"
#include "limber/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lb_vault_class {
  LB_VAULT_CLASS_NONE = 0,      /* nothing ahead within max_distance */
  LB_VAULT_CLASS_STEP_OVER = 1, /* below the lowest hand cast: step over it */
  LB_VAULT_CLASS_VAULT = 2,     /* low and short: plant a hand and vault */
  LB_VAULT_CLASS_MANTLE = 3,    /* low enough for the hands, too deep to vault: climb onto it */
  LB_VAULT_CLASS_TOO_TALL = 4,  /* the cast above the hand hits */
} lb_vault_class;

typedef enum lb_vault_refusal {
  LB_VAULT_ACCEPTED = 0,      /* class VAULT with floor and room beyond */
  LB_VAULT_NOT_VAULTABLE = 1, /* the class is not VAULT (the class says why) */
  LB_VAULT_NO_FLOOR = 2,      /* no floor within drop_limit at the landing */
  LB_VAULT_NO_ROOM = 3,       /* the standing capsule at the landing touches something */
  LB_VAULT_BUSY = 4,          /* Vault component only: a request during a vault */
  LB_VAULT_NO_TOP = 5,        /* class VAULT, but the ray down at the near face found no top
                                 (an obstacle thinner than it resolves, e.g. a mesh sheet) */
  LB_VAULT_HAND_BUSY = 6,     /* Vault component only: the hand to plant holds something and
                                 busyHand does not allow releasing it (or no free hand) */
} lb_vault_refusal;

#define LB_VAULT_MAX_CASTS                                                                         \
  32 /* casts recorded for drawing (the probe makes at most 2 + limits)                            \
      */

/* One cast the probe made, for debug drawing. */
typedef struct lb_vault_cast {
  vec3 origin;
  vec3 dir;     /* unit */
  float radius; /* 0 for a ray */
  float length; /* how far it was cast */
  float hit;    /* distance of the hit, or -1 */
} lb_vault_cast;

typedef struct lb_vault_probe_job {
  /* inputs */
  lb_world *world;
  lb_collide_filter filter;    /* default: every layer; set exclude to the character */
  lb_transform character;      /* feet position, rotation (forward = +Z); default identity */
  vec3 hand_origin;            /* character space; default (0, 1.1, 0) */
  float hand_radius;           /* (0, 1]; default 0.1 */
  float max_distance;          /* (0, 100]; default 1.5 */
  uint32_t cast_down_limit;    /* 1 .. 64; default 6 */
  uint32_t cast_forward_limit; /* 1 .. 64; default 7 */
  float landing_distance;      /* [0, 10]; default 0.5 */
  float drop_limit;            /* [0, 100]; default 1.0 */
  float capsule_radius;        /* [0, 2]; 0 skips the room check; default 0.3 */
  float capsule_height;        /* >= 2 capsule_radius; default 1.8 */
  /* outputs (zero / null entity where not found) */
  lb_vault_class verdict;
  lb_vault_refusal refusal;
  lb_entity obstacle;
  float distance; /* feet to the near face, along forward */
  float height;   /* top above the feet */
  float depth;    /* near face to far face, along forward (VAULT only) */
  vec3 near_point, near_normal;
  vec3 top, top_normal; /* at the near face (zero when not found) */
  vec3 landing;         /* floor point beyond (VAULT only, when found) */
  vec3 forward;         /* the flattened forward used */
  uint32_t cast_count;
  lb_vault_cast casts[LB_VAULT_MAX_CASTS];
} lb_vault_probe_job;

lb_vault_probe_job lb_vault_probe_default_job(void);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null world), LB_ERR_NOT_FINITE, LB_ERR_OUT_OF_RANGE
 * (a value outside its range, a character facing straight up or down, capsule_height <
 * 2 capsule_radius). */
lb_result lb_vault_probe_job_validate(const lb_vault_probe_job *job);
/* Validates, then probes; outputs are reset first. */
lb_result lb_vault_probe_job_run(lb_vault_probe_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_vault_probe_validate lb_vault_probe_job_validate
#define lb_vault_probe_run lb_vault_probe_job_run

/* ---- Vault, part 2: the Vault component (module "vault", limber/components.h) -------------
 *
 * On a character with a CharacterController (required on insert; an Animator and a Rig are
 * optional). Fields, units, ranges and defaults: LB_VAULT_FIELDS in limber/components.h.
 *
 * Request: the `request` field (TypeScript `world.update(e, Vault, (v) => { v.request = true; })`
 * or `world.requestVault(e)`, a scene timeline update) or lb_world_vault_request. The system
 * `vault.move` (Move phase, order 20: after root motion and nav agents, before
 * controller.move at 50) takes it in the next step and clears it.
 *
 * Idle + request: the probe above runs with the component's settings (filter: layerMask,
 * the character itself excluded; character: the Transform; room check: the controller's
 * radius and height) and writes obstacleClass, obstacle, top, height, depth, distance. A
 * class other than Vault, no floor or no room refuses the request (`refusal`, `refusals`
 * + 1; nothing else changes). probeEveryStep makes an idle character probe every step (the
 * outputs then show what is ahead; a request is still needed to vault).
 * Accepted (state Idle -> Vaulting, `vaults` + 1):
 *  - the Animator (if any) gets its `trigger` parameter set; its `animState` state gives the
 *    duration (clip length / state speed / Animator speed) unless vaultDuration > 0, and,
 *    with applyRootMotion, the forward motion: the clip's root motion through the controller
 *    (rootMotion = 1). Otherwise (no Animator, no such state, or no root motion) the vault
 *    moves by a scripted request: distance + depth + landingDistance along the flattened
 *    forward, evenly over the duration (1.2 s when there is no clip and vaultDuration is 0).
 *  - other locomotion input is ignored: the controller's `move` field (script moves) is
 *    cleared every step of the vault (and set to the scripted motion when scripted).
 *  - the controller shrinks: heightDelta = height + 2 handRadius + clearance (top above the
 *    feet, so the raised bottom clears it); height = max(original - heightDelta, 2 radius,
 * stepOffset), center.y = original + heightDelta / 2 (the capsule's top stays, its bottom clears
 * the top), snapDistance = 0 (a raised bottom would otherwise snap the feet down onto the top or
 * the floor). The controller takes the new size when it has room (controller.h). Vaulting: the
 * "over" test each step: a sphere of the controller's radius cast down from the feet + up *
 * (heightDelta + 2 handRadius + radius) by heightDelta. Once it has hit something (above the
 * obstacle) a miss means the character has passed over: state Over, at the latest at normalised
 * time 0.9. Over: height and center ease linearly from their values at Over to the originals over
 * the remaining time; at normalised time 1 they (and snapDistance) are written back bit-exactly
 * (state Landing).
 * Landing: until the controller applies the original size (appliedHeight/appliedCenter
 * bit-equal), then Idle, and the probe runs once more (no request): the obstacle outputs
 * name what is ahead after landing, not the obstacle just cleared.
 * A request while not Idle is refused with Busy.
 *
 * Removing the Vault mid-vault writes the original height, center and snapDistance back.
 *
 * Hand (system `vault.reach`, Reach phase, order 20, needs a Rig whose skeleton has the
 * hand): every step while Vaulting, a sphere of handRadius is cast down from the animated
 * palm centre (moved along forward into the obstacle's top, from at least 2 handRadius above
 * it) onto the obstacle (cast again every step, so the plant follows the animated hand across
 * the top); target = hit point + forward * handRadius, the palm facing against the hit normal,
 * fingers forward, kept in the obstacle's frame (a moving obstacle carries it). Weight =
 * normalised time / plantTime (capped at 1) once planted; it falls to 0 over releaseSeconds
 * after passing over, or once the target is further from the shoulder than the arm +
 * bodyShift + handRadius (the body has moved on). A target beyond the arm's reach (0.98 of
 * its length) moves the whole pose toward it by up to bodyShift (x weight; bodyOffset). The
 * arm moves by the grip module's two-bone reach (the palm centre to the target). palmGap,
 * palmError and handReached are measured on the step's final pose (Output phase, after the
 * Grip phase), so they report where the hand is drawn.
 * A hand that holds (GripHolder): the grip's main hand is never planted; busyHand says what
 * else happens. ReleaseAndRegrip (default): the vault plants `hand` if it is the support hand,
 * else (it is the main hand) the other hand. A planted support hand is handed over by
 * weight: each step the grip drives it by (1 - handWeight) of its own weight (GripHolder's
 * supportRelease = handWeight), and once the plant lets go the weight falls over the
 * GripHolder's blendSeconds (not releaseSeconds), so the grip has the hand back within its
 * blend time. FreeHand: `hand` if it holds nothing, else the other hand if it holds nothing,
 * else refused (HandBusy). Refuse: refused (HandBusy) when `hand` holds anything. The other
 * hand is found by name. plantedHand says which hand the vault drives.
 * Every step allocation-free; deterministic. */

typedef enum lb_vault_busy_hand {
  LB_VAULT_BUSY_RELEASE_AND_REGRIP = 0,
  LB_VAULT_BUSY_FREE_HAND = 1,
  LB_VAULT_BUSY_REFUSE = 2,
} lb_vault_busy_hand;

typedef enum lb_vault_state {
  LB_VAULT_IDLE = 0,
  LB_VAULT_VAULTING = 1, /* shrunk, moving toward and over the obstacle */
  LB_VAULT_OVER = 2,     /* passed the top: the capsule eases back */
  LB_VAULT_LANDING = 3,  /* originals written back, waiting for the controller to apply them */
} lb_vault_state;

/* Sets the Vault's request (the same as writing request = 1). LB_ERR_STALE_ENTITY,
 * LB_ERR_MISSING_COMPONENT without a Vault; the world unchanged on error. */
lb_result lb_world_vault_request(lb_world *world, lb_entity e);

/* The casts of the entity's last probe (for debug drawing): up to `cap` into out (may be null
 * when cap is 0), *count = how many there were. LB_ERR_MISSING_COMPONENT without a Vault. */
lb_result lb_world_vault_casts(lb_world *world, lb_entity e, lb_vault_cast *out, uint32_t cap,
                               uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
