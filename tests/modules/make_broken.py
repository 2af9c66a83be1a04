#!/usr/bin/env python3
"""
make_broken.py - derive deliberately broken modules from a good one.

    python3 tests/modules/make_broken.py GOOD.ko OUTDIR

Writes OUTDIR/broken_<what>.ko, one defect each.  The "modules" suite
(tests/kernel/test_modules.c) loads every one and checks that the loader
refuses it with the right message, without crashing or leaking.  The
expected message for each is listed in BROKEN below, so this file and
the test agree on one table: the test has its own copy in C.

The ELF32 layout used here is the System V ABI's (see include/elf.h).
"""

import struct
import sys
from pathlib import Path

EHDR = struct.Struct("<16sHHIIIIIHHHHHH")   # Elf32_Ehdr
SHDR = struct.Struct("<IIIIIIIIII")         # Elf32_Shdr
SYM = struct.Struct("<IIIBBH")              # Elf32_Sym
REL = struct.Struct("<II")                  # Elf32_Rel
SHT_SYMTAB, SHT_REL = 2, 9
STT_SECTION = 3
R_386_GOTPC = 10
E_MACHINE_OFF, EI_CLASS = 18, 4


class Elf:
    """Just enough of an ELF32 relocatable object to break it on purpose."""

    def __init__(self, data):
        self.data = bytearray(data)
        hdr = EHDR.unpack_from(self.data, 0)
        self.shoff, self.shnum, self.shstrndx = hdr[6], hdr[12], hdr[13]
        self.sections = [list(SHDR.unpack_from(self.data, self.shoff + i * SHDR.size))
                         for i in range(self.shnum)]
        strtab = self.sections[self.shstrndx]
        self.names = [self.cstr(strtab[4] + s[0]) for s in self.sections]

    def cstr(self, off):
        end = self.data.index(b"\0", off)
        return self.data[off:end].decode()

    def index(self, name):
        return self.names.index(name)

    def set_section(self, i, field, value):
        self.sections[i][field] = value
        SHDR.pack_into(self.data, self.shoff + i * SHDR.size, *self.sections[i])

    def symtab(self):
        return next(i for i, s in enumerate(self.sections) if s[1] == SHT_SYMTAB)

    def symbols(self):
        """(file offset, Elf32_Sym fields) for every symbol."""
        sec = self.sections[self.symtab()]
        for off in range(sec[4], sec[4] + sec[5], SYM.size):
            yield off, list(SYM.unpack_from(self.data, off))

    def rename(self, old, new):
        """Rename a symbol in .strtab in place (same length)."""
        assert len(old) == len(new)
        strtab = self.sections[self.sections[self.symtab()][6]]
        blob = self.data[strtab[4]:strtab[4] + strtab[5]]
        at = blob.index(b"\0" + old.encode() + b"\0") + 1
        self.data[strtab[4] + at:strtab[4] + at + len(new)] = new.encode()


def truncated(elf):
    return bytes(elf.data[:30])             # less than an ELF header


def bad_magic(elf):
    elf.data[1:4] = b"ELG"
    return bytes(elf.data)


def bad_class(elf):
    elf.data[EI_CLASS] = 2                  # ELFCLASS64
    return bytes(elf.data)


def bad_machine(elf):
    struct.pack_into("<H", elf.data, E_MACHINE_OFF, 62)   # EM_X86_64
    return bytes(elf.data)


def section_past_end(elf):
    text = elf.index(".text")
    elf.set_section(text, 4, len(elf.data) - 8)    # sh_offset: 8 bytes before the end
    return bytes(elf.data)


def reloc_missing_section(elf):
    """The section symbol of .rodata.str1.1 now names section 0x7ff0."""
    target = elf.index(".rodata.str1.1")
    for off, sym in elf.symbols():
        if sym[3] & 0xf == STT_SECTION and sym[5] == target:
            sym[5] = 0x7ff0
            SYM.pack_into(elf.data, off, *sym)
            return bytes(elf.data)
    raise SystemExit("no section symbol for .rodata.str1.1")


def reloc_bad_type(elf):
    rel = elf.sections[elf.index(".rel.text")]
    offset, info = REL.unpack_from(elf.data, rel[4])
    REL.pack_into(elf.data, rel[4], offset, (info & ~0xff) | R_386_GOTPC)
    return bytes(elf.data)


def undefined_symbol(elf):
    elf.rename("printk", "nosuch")
    return bytes(elf.data)


def no_init(elf):
    elf.rename("init_module", "init_modulX")
    return bytes(elf.data)


def no_vermagic(elf):
    """The vermagic= string in .modinfo renamed: no version magic left."""
    sec = elf.sections[elf.index(".modinfo")]
    at = sec[4] + bytes(elf.data[sec[4]:sec[4] + sec[5]]).index(b"vermagic=")
    elf.data[at:at + len(b"vermagiX")] = b"vermagiX"
    return bytes(elf.data)


# name -> (how, what the loader must say)
BROKEN = {
    "truncated": (truncated, "truncated"),
    "magic": (bad_magic, "bad ELF magic"),
    "class": (bad_class, "wrong ELF class 2"),
    "machine": (bad_machine, "wrong machine 62"),
    "section_past_end": (section_past_end, "extends past the end of the file"),
    "reloc_section": (reloc_missing_section, "st_shndx 32752 past the"),
    "reloc_type": (reloc_bad_type, "unsupported relocation R_386_GOTPC"),
    "undefined": (undefined_symbol, "unknown symbol nosuch"),
    "noinit": (no_init, "no init function"),
    "novermagic": (no_vermagic, "no version magic"),
}


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__.strip().splitlines()[2])
    good = Path(argv[1]).read_bytes()
    out = Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for name, (how, _) in BROKEN.items():
        (out / f"broken_{name}.ko").write_bytes(how(Elf(good)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
