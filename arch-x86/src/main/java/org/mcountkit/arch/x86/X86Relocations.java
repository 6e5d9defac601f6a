package org.mcountkit.arch.x86;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/** The x86 relocation types mcountkit reads or writes, numbered as in the psABIs (glibc's elf.h). */
final class X86Relocations {

    /** x86-64 psABI, "Relocation Types". */
    enum X86_64 implements RelocationType {
        R_X86_64_NONE(0),
        R_X86_64_64(1),
        R_X86_64_PC32(2),
        R_X86_64_GOT32(3),
        R_X86_64_PLT32(4),
        R_X86_64_GLOB_DAT(6),
        R_X86_64_JUMP_SLOT(7),
        R_X86_64_RELATIVE(8),
        R_X86_64_GOTPCREL(9),
        R_X86_64_32(10),
        R_X86_64_32S(11),
        R_X86_64_GOTPCRELX(41),
        R_X86_64_REX_GOTPCRELX(42);

        static final RelocationTypes TABLE = RelocationTypes.of(X86_64.class);

        private final int number;

        X86_64(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    /** i386 psABI, "Relocation Types". */
    enum I386 implements RelocationType {
        R_386_NONE(0),
        R_386_32(1),
        R_386_PC32(2),
        R_386_GOT32(3),
        R_386_PLT32(4),
        R_386_GOT32X(43);

        static final RelocationTypes TABLE = RelocationTypes.of(I386.class);

        private final int number;

        I386(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    private X86Relocations() {}
}
