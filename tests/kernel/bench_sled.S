/*
 * bench_sled.S - 10,000 places to put a probe, for the registration
 * benchmark (tests/kernel/bench.c, "BENCH reg" lines).
 *
 * BENCH_SLED_FUNCS small functions of BENCH_SLED_NOPS one-byte nops and
 * a ret each (bench_sled.h).  Small functions on purpose: register_kprobe()
 * decodes from the start of the enclosing function to the probe
 * (can_probe), and the optimizer decodes the whole function, so the work
 * per probe depends on the function, not on how many probes there are.
 * Nothing ever calls them.
 */
#include "bench_sled.h"

	.text
	.altmacro
.macro SLED_FUNC n
	.globl bench_sled_\n
	.type bench_sled_\n, @function
bench_sled_\n:
	.rept BENCH_SLED_NOPS
	nop
	.endr
	ret
	.size bench_sled_\n, . - bench_sled_\n
.endm

	.globl bench_sled
bench_sled:
	.set i, 0
	.rept BENCH_SLED_FUNCS
	SLED_FUNC %i
	.set i, i + 1
	.endr
	.globl bench_sled_end
bench_sled_end:
