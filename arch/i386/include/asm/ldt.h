/*
 * ldt.h - struct user_desc, how a program describes a segment to
 * set_thread_area() and get_thread_area() (Linux's uapi asm/ldt.h;
 * 16 bytes on i386).
 */
#ifndef ASM_LDT_H
#define ASM_LDT_H

struct user_desc {
	unsigned int entry_number;	/* a GDT index 6..8, or -1: "pick a free one" */
	unsigned int base_addr;
	unsigned int limit;
	unsigned int seg_32bit : 1;
	unsigned int contents : 2;	/* 0 data, 1 data growing down, 2 code */
	unsigned int read_exec_only : 1;
	unsigned int limit_in_pages : 1;
	unsigned int seg_not_present : 1;
	unsigned int useable : 1;
};

#define MODIFY_LDT_CONTENTS_DATA	0
#define MODIFY_LDT_CONTENTS_STACK	1
#define MODIFY_LDT_CONTENTS_CODE	2

#endif
