/* test_simd4.c on the portable path (what a wasm build without -msimd128 runs). */
#define LB_SIMD4_SCALAR 1
#include "test_simd4.c"
