/*
 * uprobe_fixups - runs uf_run() (uprobe_fixups_asm.S: every class of
 * instruction a uprobe's out-of-line step must fix up) and prints its
 * results, so a run with probes can be compared with a run without.
 * uf_greet()'s argument is a string for :ustring fetches.  With
 * "-wait" it sleeps first: a probe can arrive while it runs.  With
 * "-tf" it single-steps itself (uf_trap_self()) and dies of SIGTRAP.
 * With "-sema" it says where its semaphore is and what it holds.
 */
#include "ulib.h"

int uf_run(int n);
void uf_trap_self(void);

#define UF_RUNS 6
#define WAIT_MS 300

/*
 * An SDT probe's semaphore, in .data (the file holds it, unlike .bss):
 * a tracer names it as a uprobe's reference counter, PATH:OFFS(REF_CTR),
 * and the kernel keeps it non-zero in each process while it traces.
 */
__attribute__((section(".data"))) volatile unsigned short uf_semaphore;

/* Not inlined: a uprobe on its entry reads its argument at 4(%esp). */
__attribute__((noinline)) int uf_greet(const char *who)
{
	return printf("uprobe_fixups: hello, %s\n", who);
}

int main(int argc, char **argv)
{
	int n, sum = 0;

	if (argc > 1 && strcmp(argv[1], "-wait") == 0)
		msleep(WAIT_MS);
	if (argc > 1 && strcmp(argv[1], "-sema") == 0) {
		uf_greet("semaphore");
		printf("uprobe_fixups: semaphore at %p is %u\n", (void *)&uf_semaphore,
		       uf_semaphore);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "-tf") == 0) {
		uf_trap_self();
		printf("uprobe_fixups: TF set and no SIGTRAP\n");
		return 1;
	}
	uf_greet("uprobes");
	for (n = 0; n < UF_RUNS; n++) {
		int r = uf_run(n);

		printf("uf_run(%d) = %d\n", n, r);
		sum += r;
	}
	printf("uprobe_fixups: sum %d\n", sum);
	return 0;
}
