/* pic.h - the two 8259A interrupt controllers (arch/i386/pic.c). */
#ifndef PIC_H
#define PIC_H

#include <stdbool.h>

void pic_init(void);
void pic_eoi(int irq);
void pic_unmask(int irq);
/* True for a spurious IRQ 7/15: the caller must then skip EOI and handler. */
bool pic_is_spurious(int irq);

#endif
