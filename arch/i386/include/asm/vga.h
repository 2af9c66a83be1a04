/* asm/vga.h - the PC's VGA text screen (arch/i386/vga.c), a console for printk. */
#ifndef ASM_VGA_H
#define ASM_VGA_H

void vga_init(void);        /* 80x25 text mode at 0xB8000 */

#endif
