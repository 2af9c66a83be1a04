/*
 * percpu.h - one copy of a variable for each CPU, reached through %fs.
 *
 * DEFINE_PER_CPU() puts a variable in the .data..percpu section.  That
 * section is the template: at boot each CPU gets its own copy of it, and
 * __per_cpu_offset[cpu] is the distance from the template to that copy.
 * CPU 0 uses the template itself (offset 0); every other CPU a copy
 * made from the template as it was before CPU 0 wrote to it.
 *
 * The trick Linux i386 uses, and so do we: each CPU's %fs holds a data
 * segment whose BASE is that CPU's offset.  "movl %fs:var, %eax" then
 * reads this CPU's copy of var in one instruction, with no need to know
 * which CPU we are on - the segment register answers that.  A thread
 * that moves to another CPU finds the new CPU's %fs there, because %fs
 * belongs to the CPU, not to the thread (no code here ever changes it).
 */
#ifndef PERCPU_H
#define PERCPU_H

#include "kernel.h"
#include <asm/segment.h>

#define NR_CPUS 8	/* the most CPUs this kernel brings up */

#define DEFINE_PER_CPU(type, name) \
	__section(".data..percpu") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __typeof__(type) name

/* Template-to-copy distance for each CPU; 0 for CPU 0 and offline CPUs. */
extern unsigned long __per_cpu_offset[NR_CPUS];

/* Another CPU's copy (or this one's, by number). */
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))

/*
 * This CPU's copy.  Reading or writing a 4-byte per-CPU variable is one
 * %fs-relative instruction, so it cannot be torn by a migration in the
 * middle (Linux's this_cpu_read()/this_cpu_write() promise the same).
 */
#define this_cpu_read(var) ({						\
	__typeof__(var) __v;						\
	_Static_assert(sizeof(var) == 4, "this_cpu_read: 4-byte vars");	\
	__asm__ __volatile__("movl %%fs:%1, %0"				\
			     : "=r" (__v) : "m" (var));			\
	__v;								\
})
#define this_cpu_write(var, val) do {					\
	__typeof__(var) __v = (val);					\
	_Static_assert(sizeof(var) == 4, "this_cpu_write: 4-byte vars");\
	__asm__ __volatile__("movl %1, %%fs:%0"				\
			     : "=m" (var) : "ri" (__v) : "memory");	\
} while (0)
#define this_cpu_inc(var) \
	__asm__ __volatile__("incl %%fs:%0" : "+m" (var) :: "memory")
#define this_cpu_dec(var) \
	__asm__ __volatile__("decl %%fs:%0" : "+m" (var) :: "memory")

/* The copy's own address: this_cpu_off holds this CPU's offset. */
DECLARE_PER_CPU(unsigned long, this_cpu_off);
#define this_cpu_ptr(ptr) \
	((__typeof__(ptr))((unsigned long)(ptr) + this_cpu_read(this_cpu_off)))

/*
 * Point %fs at this CPU's per-CPU segment.  Every CPU loads the same
 * selector; its own GDT gives the descriptor this CPU's base (gdt.c).
 */
static inline void load_percpu_segment(void)
{
	__asm__ __volatile__("movw %w0, %%fs" : : "r"(__KERNEL_PERCPU) : "memory");
}

/* The areas of the other CPUs (arch/i386/percpu.c). */
int per_cpu_area_alloc(int cpu);
void per_cpu_area_free(int cpu);

#endif
