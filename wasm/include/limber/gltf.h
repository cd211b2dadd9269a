/* glTF 2.0 import: skeletons (node hierarchy, skins) and animation clips from bytes the
 * caller passes (the core reads no files).
 *
 * Input: a binary .glb (magic "glTF", version 2, a JSON chunk and an optional BIN chunk) or
 * .gltf JSON text (UTF-8, an optional BOM). Buffers come from the GLB BIN chunk (buffer 0
 * without a uri), from base64 `data:` URIs, or from external (uri, bytes) pairs passed in the
 * def. Only the buffers behind the accessors actually read are resolved, so a .gltf whose
 * mesh or image buffers are not passed still imports its skeleton and clips.
 *
 * Output: an lb_gltf_asset (one allocation arena, freed by lb_gltf_free) holding
 *  - the skeleton as an lb_skeleton_def, joints in depth-first order (every parent before
 *    its children, children in the glTF `children` order), ready for lb_world_add_skeleton
 *    (which keeps this order);
 *      with a skin: the skin's joints plus any non-joint nodes between a joint and the
 *      closest common root of all joints (so the hierarchy and rest pose stay exact; such
 *      nodes are animated like joints); the joints must lie in one node tree. When an
 *      animation moves a node above that root (an armature node with a translation,
 *      rotation or scale channel whose keys are not all its rest value), the skeleton
 *      starts at the topmost such node instead, so the character moves as three.js plays
 *      the file (the armature node becomes the root joint, and root motion reads it);
 *      channels that only hold a node's rest value do not count;
 *      without a skin: every node, roots in node-index order;
 *  - joint names from node names: an unnamed node (or name "") is "node<i>" (i = glTF node
 *    index); '/' in a name becomes '_' (it separates joint paths); names must be shorter
 *    than LB_JOINT_NAME_MAX bytes; duplicates get a suffix "_1", "_2", ... (the first keeps
 *    its name, as three.js does) or are an error (LB_GLTF_NAMES_ERROR);
 *  - local rest TRS from the node's translation/rotation/scale, or from its `matrix`
 *    (column-major) decomposed as three.js does: translation = column 3, scale = column
 *    lengths, rotation from the scale-free 3x3; a shear in the matrix is dropped; a
 *    negative determinant (mirroring) or a zero scale is refused (lb_skeleton needs
 *    scale > 0). Rest rotations must be unit length within 1e-3 (|q|^2 in [0.999, 1.001]);
 *  - the skin: per skin joint the skeleton joint index and the inverse bind matrix
 *    (column-major mat4; identity when the skin has none), also passed on as the
 *    skeleton's skin order (lb_skeleton_def.skin_joints, lb_skeleton_skin_joints);
 *  - where the skinned mesh ends per joint (lb_skeleton_def.mesh_ends, lb_joint_end): from
 *    every mesh node bound to the chosen skin, the POSITION, JOINTS_0 and WEIGHTS_0 of its
 *    primitives in the bind pose (each vertex taken to a joint's frame by that joint's
 *    inverse bind matrix); a grip finger without an end joint ends there (limber/grip.h).
 *    Optional: a primitive that cannot be read (a buffer not passed, other attribute
 *    types) is skipped, and without vertices mesh_ends stays null;
 *  - clips: one lb_clip per glTF animation (same index), joint_count = the skeleton's, one
 *    track per animated (joint, path) for translation, rotation and scale; LINEAR and STEP
 *    keys are copied bit-exactly (times, floats). Channels that target nodes outside the
 *    skeleton and `weights` channels are skipped, but their key times count towards the
 *    clip duration (as in three.js). Duration = the last key time of the animation (seconds;
 *    a pose clip whose keys all sit at 0 gets 1 s so it stays a valid clip). Rotation keys
 *    stored as normalised integers (BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT) are decoded
 *    per the spec (c / 127, c / 255, c / 32767, c / 65535, signed ones clamped to -1) and
 *    normalised; float rotation keys must be unit length within 1e-3 and are kept as
 *    stored. CUBICSPLINE channels are resampled into LINEAR keys (Hermite with the file's
 *    in/out tangents, rotations normalised as three.js does) by bisecting every segment
 *    until the linear keys stay within cubic_tolerance (default LB_GLTF_CUBIC_TOLERANCE)
 *    of the curve (checked at the quarter points of every sub-span, at most 1024 sub-spans
 *    per key span); each clip reports the tracks, the tolerance and the largest deviation
 *    measured (lb_clip_reduction.cubic_*). Unnamed animations are "animation_<i>" (i = the
 *    glTF animation index), as three.js's GLTFLoader names them.
 *
 * Validation: nothing is returned on error; the result code and a message naming the
 * thing ("accessor 7: offset + size exceeds bufferView 2") tell why:
 *  LB_ERR_PARSE             truncated data (the GLB header length must equal `size`),
 *                           wrong magic/version, chunk lengths, malformed
 *                           JSON, a missing or wrongly typed property, an index out of
 *                           range, accessor bounds, wrong component types or counts, a
 *                           node with two parents, skin joints not in one tree, an
 *                           unsupported required extension (meshopt compression);
 *  LB_ERR_CYCLE             a cycle in the node hierarchy;
 *  LB_ERR_NOT_FINITE        a NaN/Inf value, or a number that overflows a float;
 *  LB_ERR_OUT_OF_RANGE      key times negative or not strictly increasing, a non-unit
 *                           rotation, a scale <= 0, a name too long;
 *  LB_ERR_DEGENERATE        a zero rotation, a singular or mirroring node matrix;
 *  LB_ERR_INVALID_ARGUMENT  bad def, duplicate names with LB_GLTF_NAMES_ERROR, a channel
 *                           targeting the same joint and path twice;
 *  LB_ERR_UNKNOWN_NAME      an external buffer uri that was not passed in the def;
 *  LB_ERR_CAPACITY          more than LB_MAX_JOINTS skeleton joints, an accessor of more
 *                           than 2^20 elements without a bufferView, a CUBICSPLINE track
 *                           needing more than 2^20 resampled keys;
 *  LB_ERR_OUT_OF_MEMORY     an allocation failed.
 */
#ifndef LIMBER_GLTF_H
#define LIMBER_GLTF_H

#include "limber/anim.h"
#include "limber/base.h"
#include "limber/rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An external buffer: bytes the caller read for a buffer whose uri is not a data: URI.
 * `uri` is compared byte for byte with the buffer's uri string in the JSON. */
typedef struct lb_gltf_buffer {
  const char *uri;
  const uint8_t *bytes;
  size_t size; /* >= the buffer's byteLength */
} lb_gltf_buffer;

typedef enum lb_gltf_names {
  LB_GLTF_NAMES_SUFFIX = 0, /* duplicates become "name_1", "name_2", ... (default) */
  LB_GLTF_NAMES_ERROR = 1,  /* duplicates are LB_ERR_INVALID_ARGUMENT */
} lb_gltf_names;

#define LB_GLTF_SKIN_AUTO (-1)  /* skin 0 if the file has skins, else every node */
#define LB_GLTF_ALL_NODES (-2)  /* every node, even if the file has skins */
#define LB_GLTF_MESSAGE_MAX 256 /* a message buffer of this size never truncates ours */
/* The default CUBICSPLINE resampling tolerance: with it, sampled clips agree with three.js's
 * GLTFCubicSplineInterpolant within 1e-5 (metres, scale units, quaternion components). */
#define LB_GLTF_CUBIC_TOLERANCE 5e-6f

typedef struct lb_gltf_def {
  const uint8_t *data;           /* .glb or .gltf bytes; need not be NUL-terminated */
  size_t size;                   /* bytes in data, > 0 */
  const lb_gltf_buffer *buffers; /* external buffers (may be null when buffer_count == 0) */
  uint32_t buffer_count;
  int32_t skin;          /* skin index, LB_GLTF_SKIN_AUTO (default) or LB_GLTF_ALL_NODES */
  lb_gltf_names names;   /* duplicate joint/clip names; default LB_GLTF_NAMES_SUFFIX */
  float cubic_tolerance; /* CUBICSPLINE channels are resampled to LINEAR keys within this
                            distance (metres, scale units, or quaternion components);
                            0 (default) = LB_GLTF_CUBIC_TOLERANCE; finite, in [0, 1] */
  /* Clip reduction (lb_clip_reduce_job): tracks whose motion moves no joint, and no point
   * skin_distance from a joint, by more than key_tolerance are made constant. Metres;
   * key_tolerance in [0, 1], default 1e-4 (0 keeps every key as the file has it);
   * skin_distance in [0, 100], default 0.1. */
  float key_tolerance;
  float skin_distance;
  lb_allocator allocator; /* default malloc/free; lb_world_add_gltf: the world's */
} lb_gltf_def;

lb_gltf_def lb_gltf_default_def(void);

typedef struct lb_gltf_clip {
  char name[LB_JOINT_NAME_MAX]; /* animation name, "animation_<i>" if unnamed (as three.js) */
  lb_clip clip;                 /* passed lb_clip_validate; joint_count = skeleton joints */
  lb_clip_reduction reduction;  /* what the key reduction did (def.key_tolerance) and the
                                   CUBICSPLINE resampling (cubic_*) */
} lb_gltf_clip;

typedef struct lb_gltf_asset {
  /* Skeleton, depth-first; names, parents and rest point into the asset. */
  lb_skeleton_def skeleton;
  const int32_t *joint_nodes; /* glTF node index of each skeleton joint */
  /* World transform of the nodes above the skeleton root (identity when the root is a
   * scene root), composed as TRS like lb_transform_mul; none of them is animated (an
   * animated one would have become the root, see above).
   * Without a skin, identity. It is already part of the rig: the root joint's rest and
   * every clip's root keys are root_parent * the file's values, so model space is the
   * file's scene space (a Z-up centimetre armature stands Y-up in metres with an identity
   * Transform). An adapter driving the root bone from another runtime composes it the same
   * way (root joint local = root_parent * the bone's local). */
  lb_transform root_parent;
  /* Skin (skin_index -1 and skin_joint_count 0 when every node was taken). */
  int32_t skin_index;
  uint32_t skin_joint_count;
  const uint16_t *skin_joints; /* skeleton joint index of each skin joint */
  const mat4 *inverse_bind;    /* per skin joint, column-major */
  /* Clips, one per glTF animation. */
  uint32_t clip_count;
  const lb_gltf_clip *clips;
  void *internal_; /* allocation arena */
} lb_gltf_asset;

/* Parses and validates def->data; *out receives the asset (null on error). `message`
 * (optional, message_size bytes) receives "" or the reason ("gltf: accessor 7: ..."). */
lb_result lb_gltf_import(const lb_gltf_def *def, lb_gltf_asset **out, char *message,
                         size_t message_size);
/* Frees everything the asset holds (null is ignored). */
void lb_gltf_free(lb_gltf_asset *asset);

/* ---- world: skeleton + clip assets ------------------------------------------------------- */

/* Handles that lb_world_add_gltf created. Clip handles are consecutive:
 * first_clip .. first_clip + clip_count - 1, in glTF animation order. */
typedef struct lb_gltf_added {
  uint32_t skeleton; /* skeleton asset handle (> 0) */
  uint32_t first_clip;
  uint32_t clip_count;
} lb_gltf_added;

/* Imports def (with the world's allocator unless def->allocator is set) and adds the
 * skeleton (lb_world_add_skeleton) and every clip as a clip asset of that skeleton. On any
 * error the world is unchanged and lb_world_last_error says why. */
lb_result lb_world_add_gltf(lb_world *world, const lb_gltf_def *def, lb_gltf_added *out);
/* The same from an imported asset (the world copies what it keeps). */
lb_result lb_world_add_gltf_asset(lb_world *world, const lb_gltf_asset *asset, lb_gltf_added *out);

/* A mesh node added as a collision mesh asset (limber/collide.h). */
typedef struct lb_gltf_mesh_node {
  char name[LB_JOINT_NAME_MAX]; /* node name ('/' kept), "node<i>" if unnamed or too long */
  uint32_t node;                /* glTF node index */
  uint32_t mesh;                /* collision mesh asset handle (lb_world_add_mesh) */
} lb_gltf_mesh_node;

/* Every node with a mesh becomes one collision mesh asset, in node order: the triangles of
 * all its primitives (mode TRIANGLES; POSITION float VEC3; indices optional) with the node's
 * world transform (its parents' TRS composed, as lb_transform_mul) applied to the vertices,
 * so the asset is in the file's world frame. Up to `cap` entries go to out; *count receives
 * the number of mesh nodes. LB_ERR_CAPACITY when they do not fit (nothing added), the glTF
 * codes of lb_gltf_import, LB_ERR_INVALID_ARGUMENT for a primitive that is not triangles or
 * a file without mesh nodes, and lb_world_add_mesh's codes (naming the node). On any error
 * the world is unchanged. The def's skin, names and cubic_tolerance are not used. */
lb_result lb_world_add_gltf_meshes(lb_world *world, const lb_gltf_def *def, lb_gltf_mesh_node *out,
                                   uint32_t cap, uint32_t *count);

/* Clip assets (owned by the world, freed with it; handles > 0, never reused). */

/* Copies `clip` (must pass lb_clip_validate; joint_count <= the skeleton's joint count) as a
 * clip asset named `name` (1 .. LB_JOINT_NAME_MAX - 1 bytes) animating skeleton asset
 * `skeleton`. Names need not be unique. */
lb_result lb_world_add_clip(lb_world *world, const char *name, uint32_t skeleton,
                            const lb_clip *clip, uint32_t *out_clip);
/* First clip (in add order) named `name` animating `skeleton` (0: any skeleton), or 0.
 * Deprecated, until 0.3: "animation<i>", the name unnamed glTF animations had before 0.2,
 * finds "animation_<i>" when no clip has the old name. */
uint32_t lb_world_find_clip(const lb_world *world, uint32_t skeleton, const char *name);
uint32_t lb_world_clip_count(const lb_world *world);
/* Null / 0 for an invalid handle. */
const lb_clip *lb_world_clip(const lb_world *world, uint32_t clip);
const char *lb_world_clip_name(const lb_world *world, uint32_t clip);
uint32_t lb_world_clip_skeleton(const lb_world *world, uint32_t clip);
/* What the key reduction did to a clip asset (lb_gltf_def.key_tolerance for glTF clips, the
 * default tolerance for lb_world_add_clip); LB_ERR_INVALID_ARGUMENT for an invalid handle or
 * a null out. */
lb_result lb_world_clip_reduction(const lb_world *world, uint32_t clip, lb_clip_reduction *out);

/* Samples a clip asset over its skeleton's rest pose (lb_sample_job, no cursor): `out`
 * receives `count` local transforms, count = the skeleton's joint count. time in seconds,
 * finite (see lb_sample_job for loop and clamping). */
lb_result lb_world_sample_clip(lb_world *world, uint32_t clip, float time, bool loop,
                               lb_transform *out, uint32_t count);

/* Rest pose (local, depth-first) of a skeleton asset; null for an invalid handle. */
const lb_transform *lb_world_skeleton_rest(const lb_world *world, uint32_t skeleton,
                                           uint32_t *count);

#ifdef __cplusplus
}
#endif
#endif
