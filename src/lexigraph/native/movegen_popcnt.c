/* movegen_popcnt.c: movegen.c's generation compiled a second time with the popcnt instruction allowed, as
 * lx_movegen_run_popcnt; movegen.c's lx_movegen_run calls it when the processor has the instruction
 * (__builtin_cpu_supports), else its portable copy. Why: the generator counts bits of its tile sets at every arc
 * (bits.h), and without the instruction the count is a dozen operations, about a tenth of a generation; building
 * the whole extension with -mpopcnt would make it crash on the (old) processors without it. */

/* bits.h's LX_POPCNT_CLONE condition, restated: bits.h itself must come after the pragma (its count is chosen
 * by __POPCNT__, which the pragma defines). */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#pragma GCC target("popcnt")
#define LX_MOVEGEN_CORE lx_movegen_run_popcnt
#define LX_MOVEGEN_ENTRY_POINTS 0
#include "movegen.c"
#else
/* ISO C wants a translation unit to declare something. */
typedef int lx_movegen_popcnt_unused;
#endif
