/*
 * meminfo.c - /proc/meminfo (Linux's fs/proc/meminfo.c): memory in kB,
 * each line "Name:" padded to 16 columns and the number to 8, as
 * Linux's show_val_kb() prints it, so free(1) and scripts parse it.
 *
 * This kernel has no page cache, no swap and no reclaim: its pages are
 * free, or the kernel's, or a process's.  MemTotal counts every RAM
 * frame (max_pfn), the kernel image's too (Linux leaves reserved pages
 * out); MemAvailable is MemFree, as nothing could be reclaimed; Slab is
 * the kmalloc heap (Linux's slab allocators' place).
 */
#include "kernel.h"
#include "proc_fs.h"
#include "mm.h"
#include "vsprintf.h"

#define KB	1024

static void show_val_kb(struct seq_buf *s, const char *name, unsigned long pages)
{
	seq_buf_printf(s, "%-16s%8lu kB\n", name, pages * (PAGE_SIZE / KB));
}

int meminfo_proc_show(struct seq_buf *s, void *data)
{
	struct heap_stats hs;
	unsigned long free = pages_free();

	heap_get_stats(&hs);
	show_val_kb(s, "MemTotal:", max_pfn);
	show_val_kb(s, "MemFree:", free);
	show_val_kb(s, "MemAvailable:", free);
	show_val_kb(s, "Buffers:", 0);
	show_val_kb(s, "Cached:", 0);
	show_val_kb(s, "SwapCached:", 0);
	show_val_kb(s, "SwapTotal:", 0);
	show_val_kb(s, "SwapFree:", 0);
	seq_buf_printf(s, "%-16s%8lu kB\n", "Slab:", (hs.live_bytes + KB - 1) / KB);
	return 0;
}
