/*
 * elf.h - the parts of the ELF32 format the module loader reads.
 *
 * A module (.ko) is an ELF relocatable object, exactly what `gcc -c`
 * writes: no program headers, no fixed addresses.  It is a list of
 * sections (code, data, a symbol table, string tables) plus relocation
 * records saying "patch these 4 bytes with the address of that symbol".
 * Field names follow the System V ABI and Linux's <linux/elf.h>; the
 * i386 relocation types come from the i386 psABI supplement.
 */
#ifndef ELF_H
#define ELF_H

#include <stdint.h>

typedef uint32_t Elf32_Addr;
typedef uint16_t Elf32_Half;
typedef uint32_t Elf32_Off;
typedef int32_t  Elf32_Sword;
typedef uint32_t Elf32_Word;

/* ---- the file header ------------------------------------------------------ */

#define EI_NIDENT	16
#define EI_MAG0		0	/* e_ident[] indices */
#define EI_CLASS	4
#define EI_DATA		5
#define EI_VERSION	6

#define ELFMAG		"\177ELF"
#define SELFMAG		4
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1	/* little endian */
#define EV_CURRENT	1

#define ET_REL		1	/* relocatable object: what modules are */
#define ET_EXEC		2
#define ET_DYN		3

#define EM_386		3
#define EM_X86_64	62

typedef struct {
	unsigned char e_ident[EI_NIDENT];
	Elf32_Half e_type;
	Elf32_Half e_machine;
	Elf32_Word e_version;
	Elf32_Addr e_entry;
	Elf32_Off  e_phoff;
	Elf32_Off  e_shoff;	/* where the section header table starts */
	Elf32_Word e_flags;
	Elf32_Half e_ehsize;
	Elf32_Half e_phentsize;
	Elf32_Half e_phnum;
	Elf32_Half e_shentsize;	/* must be sizeof(Elf32_Shdr) */
	Elf32_Half e_shnum;
	Elf32_Half e_shstrndx;	/* the section holding section names */
} Elf32_Ehdr;

/* ---- program headers: what an executable asks to be loaded ----------------- */

#define PT_NULL		0
#define PT_LOAD		1	/* map p_filesz bytes of the file, p_memsz in memory */
#define PT_PHDR		6	/* the program header table itself, in memory */
#define PF_X		0x1	/* p_flags: executable, writable, readable */
#define PF_W		0x2
#define PF_R		0x4

typedef struct {
	Elf32_Word p_type;
	Elf32_Off  p_offset;	/* where the bytes are in the file */
	Elf32_Addr p_vaddr;	/* where they go in the process */
	Elf32_Addr p_paddr;
	Elf32_Word p_filesz;
	Elf32_Word p_memsz;	/* more than p_filesz: the rest is zero (.bss) */
	Elf32_Word p_flags;
	Elf32_Word p_align;
} Elf32_Phdr;

/* ---- sections ---------------------------------------------------------------- */

#define SHN_UNDEF	0	/* special section indices in st_shndx */
#define SHN_LORESERVE	0xff00
#define SHN_ABS		0xfff1
#define SHN_COMMON	0xfff2
#define SHN_XINDEX	0xffff	/* the real index is elsewhere: not supported */

#define SHT_NULL	0
#define SHT_PROGBITS	1
#define SHT_SYMTAB	2
#define SHT_STRTAB	3
#define SHT_RELA	4
#define SHT_NOBITS	8	/* .bss: takes memory, no bytes in the file */
#define SHT_REL		9

#define SHF_WRITE	0x1
#define SHF_ALLOC	0x2	/* occupies memory when loaded */
#define SHF_EXECINSTR	0x4

typedef struct {
	Elf32_Word sh_name;	/* offset in the e_shstrndx string table */
	Elf32_Word sh_type;
	Elf32_Word sh_flags;
	Elf32_Addr sh_addr;
	Elf32_Off  sh_offset;
	Elf32_Word sh_size;
	Elf32_Word sh_link;	/* symtab: its strtab; rel: its symtab */
	Elf32_Word sh_info;	/* rel: the section it patches */
	Elf32_Word sh_addralign;
	Elf32_Word sh_entsize;
} Elf32_Shdr;

/* ---- symbols --------------------------------------------------------------- */

#define STB_LOCAL	0
#define STB_GLOBAL	1
#define STB_WEAK	2

#define STT_NOTYPE	0
#define STT_OBJECT	1
#define STT_FUNC	2
#define STT_SECTION	3
#define STT_FILE	4

typedef struct {
	Elf32_Word    st_name;
	Elf32_Addr    st_value;	/* in a .o: offset inside section st_shndx */
	Elf32_Word    st_size;
	unsigned char st_info;	/* binding << 4 | type */
	unsigned char st_other;
	Elf32_Half    st_shndx;
} Elf32_Sym;

#define ELF32_ST_BIND(i)	((i) >> 4)
#define ELF32_ST_TYPE(i)	((i) & 0xf)

/* ---- relocations ------------------------------------------------------------ */

/* i386 uses REL: the addend A is the 4 bytes already at the patched place. */
typedef struct {
	Elf32_Addr r_offset;	/* in a .o: offset inside the patched section */
	Elf32_Word r_info;	/* symbol index << 8 | type */
} Elf32_Rel;

#define ELF32_R_SYM(i)		((i) >> 8)
#define ELF32_R_TYPE(i)		((unsigned char)(i))

/* i386 psABI, "Relocation Types".  S = symbol, A = addend, P = place. */
#define R_386_NONE	0
#define R_386_32	1	/* S + A: an absolute address */
#define R_386_PC32	2	/* S + A - P: a call/jmp displacement */
#define R_386_GOT32	3
#define R_386_PLT32	4
#define R_386_COPY	5
#define R_386_GLOB_DAT	6
#define R_386_JMP_SLOT	7
#define R_386_RELATIVE	8
#define R_386_GOTOFF	9
#define R_386_GOTPC	10
#define R_386_32PLT	11
#define R_386_16	20
#define R_386_PC16	21
#define R_386_8		22
#define R_386_PC8	23
#define R_386_IRELATIVE	42
#define R_386_GOT32X	43

#endif
