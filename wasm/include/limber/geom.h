/* Geometry, part 1: simple shapes (GripSurface) and point-to-shape signed distance.
 *
 * A shape is declared by an lb_shape_def in its owning entity's own units (like a collider),
 * then resolved once per step into the space where it is queried (usually a rig's model
 * space) as an lb_shape. Queries only read the resolved shape.
 *
 * ---- Shapes (in the entity's frame, before resolving) ---------------------------------
 *   sphere    centre `center`, `radius`.
 *   cylinder  axis along the entity's `direction` axis through `center`, `radius`, total
 *             length `height` (flat caps at center ± height/2 along the axis).
 *   capsule   like the cylinder, but `height` is the TOTAL length including the two
 *             hemispherical caps, so height >= 2 * radius (height == 2 * radius is a sphere).
 *   box       axis-aligned with the entity, centre `center`, full extents `size`.
 *
 * ---- Resolving into a space (lb_shape_resolve) ----------------------------------------
 * space_from_entity = (t, r, s) maps an entity point x to t + r * (s ⊙ x). The centre is
 * mapped exactly. Sizes take |s| per axis (shapes are symmetric, so a negative scale is a
 * mirror and changes nothing else). Uniform scale is exact. Non-uniform scale has no exact
 * sphere, cylinder or capsule, so the rule is CONSERVATIVE: the resolved shape contains the
 * truly scaled one, and fingers stop on or just before the true surface, never inside it:
 *   box       half-extents scaled per axis: exact.
 *   cylinder  radius × max of the two scales across the axis; height × the axis scale
 *             (an elliptic section is replaced by its circumscribed circle).
 *   capsule   radius × max of all three scales (each cap becomes an ellipsoid, held by a
 *             ball of its largest semi-axis); the straight middle part (height - 2·radius)
 *             × the axis scale. Resolved total length = middle + 2 × resolved radius.
 *   sphere    radius × max of all three scales.
 *
 * ---- Distance (lb_shape_distance) ------------------------------------------------------
 * Exact Euclidean signed distance in metres, negative inside, for all four shapes:
 * the cylinder includes its flat caps and their rims, the box its faces, edges and corners,
 * inside and outside. Computed in single precision with + - * / and sqrt in a fixed order:
 * same inputs give the same bits natively and in WebAssembly. Measured error against a
 * double-precision reference is printed by tests/c/test_geom.c (about 1e-7 m near 1 m).
 */
#ifndef LIMBER_GEOM_H
#define LIMBER_GEOM_H

#include "limber/base.h"
#include "limber/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lb_shape_type {
  LB_SHAPE_CYLINDER = 0,
  LB_SHAPE_CAPSULE = 1,
  LB_SHAPE_SPHERE = 2,
  LB_SHAPE_BOX = 3,
  LB_SHAPE_TYPE_COUNT = 4
} lb_shape_type;

typedef enum lb_axis { LB_AXIS_X = 0, LB_AXIS_Y = 1, LB_AXIS_Z = 2, LB_AXIS_COUNT = 3 } lb_axis;

/* Sizes (and the magnitude of the centre) must stay below this, so that squared distances
 * cannot overflow a float. In the entity's own units. */
#define LB_SHAPE_MAX_EXTENT 1.0e6f

/* What the GripSurface component holds, in the owning entity's own units. Fields a type
 * does not use (e.g. `size` for a cylinder) are only checked to be finite. */
typedef struct lb_shape_def {
  lb_shape_type type; /* default LB_SHAPE_CYLINDER */
  lb_axis direction;  /* cylinder / capsule axis; default LB_AXIS_Y */
  vec3 center;        /* default (0, 0, 0) */
  float radius;       /* cylinder, capsule, sphere: > 0; default 0.02 */
  float height;       /* cylinder, capsule: total length > 0 (capsule >= 2 radius); default 0.1 */
  vec3 size;          /* box: full extents, each > 0; default (0.1, 0.1, 0.1) */
} lb_shape_def;

/* Cylinder along Y, radius 0.02, height 0.1, size 0.1 × 0.1 × 0.1, centred. */
lb_shape_def lb_shape_default_def(void);

/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null def, type or direction out of the enum),
 * LB_ERR_NOT_FINITE (any NaN/Inf field, used or not), LB_ERR_OUT_OF_RANGE (a used size
 * <= 0, a value beyond LB_SHAPE_MAX_EXTENT, a capsule with height < 2 * radius). */
lb_result lb_shape_validate(const lb_shape_def *def);
/* The same check; *field (if non-null) receives the name of the offending field
 * ("type", "direction", "center", "radius", "height", "size") or NULL when LB_OK, so a
 * caller can name it in its message. */
lb_result lb_shape_check(const lb_shape_def *def, const char **field);

/* A shape resolved into some space. Produced by lb_shape_resolve; read by queries. */
typedef struct lb_shape {
  vec3 center;        /* metres, in the space */
  versor rotation;    /* unit quaternion: the shape's own axes → the space */
  lb_shape_type type; /* as in the def */
  lb_axis axis;       /* cylinder / capsule: the shape's own axis it runs along */
  float radius;       /* cylinder, capsule, sphere: metres, > 0; box: 0 */
  /* Cylinder and capsule: half the total length along `axis`, metres (capsule: caps
   * included, >= radius). Sphere, box: 0. */
  float half_height;
  vec3 half_extents; /* box: metres, > 0; others: 0 */
} lb_shape;

/* Resolves `def` through space_from_entity (NULL = identity) into *out, with the scale
 * rule above. LB_OK, or the codes of lb_shape_validate, or LB_ERR_INVALID_ARGUMENT (null
 * out), LB_ERR_NOT_FINITE (a non-finite transform or result), LB_ERR_OUT_OF_RANGE (a
 * zero scale component or zero-length rotation, or a resolved size beyond
 * LB_SHAPE_MAX_EXTENT). The rotation is normalised. On failure *out is left unchanged. */
lb_result lb_shape_resolve(const lb_shape_def *def, const lb_transform *space_from_entity,
                           lb_shape *out);

/* Checks a resolved shape (e.g. one built by hand or received from elsewhere): LB_OK, or
 * LB_ERR_INVALID_ARGUMENT (null, bad type or axis), LB_ERR_NOT_FINITE, LB_ERR_OUT_OF_RANGE
 * (used sizes <= 0 or beyond LB_SHAPE_MAX_EXTENT, capsule half_height < radius, rotation
 * not unit within 1e-3 in squared norm). */
lb_result lb_shape_validate_resolved(const lb_shape *shape);

/* Signed distance in metres from p to the surface, negative inside. Exact for every
 * shape (see above). `shape` must be valid (lb_shape_resolve or
 * lb_shape_validate_resolved); a null shape gives +FLT_MAX (never near anything). A
 * non-finite p (or one whose coordinates sum beyond FLT_MAX) gives NaN. */
float lb_shape_distance(const lb_shape *shape, const vec3 p);

/* The surface point nearest to p (out_point) and the unit normal there pointing out of the
 * shape (out_normal: the depenetration direction when p is inside); returns the signed
 * distance of lb_shape_distance (the same value). Inside, the nearest face wins (ties: a
 * cylinder's cap before its side, a box's lower axis first); a point on the axis of a
 * sphere, capsule or cylinder takes the shape's next axis (Y for an X axis, Z for Y, X for
 * Z; the sphere: its Y axis) as the radial direction. Null shape or outputs: +FLT_MAX and
 * nothing written; a non-finite p gives NaN and nothing written. */
float lb_shape_closest(const lb_shape *shape, const vec3 p, vec3 out_point, vec3 out_normal);

#ifdef __cplusplus
}
#endif
#endif
