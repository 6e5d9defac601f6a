package org.mcountkit.arch.mips;

import org.mcountkit.api.RelocationInfo;

/**
 * n64's {@code r_info}: four bytes of symbol index in the file's byte order, then one byte each of
 * {@code r_ssym}, {@code r_type3}, {@code r_type2} and {@code r_type}, in that order in the file
 * whatever the byte order (binutils' elf64-mips.c, Elf64_Mips_External_Rel; recordmcount.c's
 * {@code union mips_r_info}). Read as one 64-bit word in the file's order, the fields land in
 * different bits on big- and little-endian files, hence one packing per byte order. A written
 * relocation has {@code r_ssym}, {@code r_type2} and {@code r_type3} 0 (RSS_UNDEF, R_MIPS_NONE),
 * as recordmcount.c's MIPS64_r_info writes them.
 */
enum Mips64RelocationInfo implements RelocationInfo {
    /** Big-endian: the symbol in the high half, {@code r_type} in the lowest byte. */
    BIG {
        @Override
        public int symbol(long info) {
            return (int) (info >>> 32);
        }

        @Override
        public int type(long info) {
            return (int) (info & 0xff);
        }

        @Override
        public long info(int symbol, int type) {
            return ((long) symbol << 32) | (type & 0xff);
        }
    },
    /** Little-endian: the symbol in the low half, {@code r_type} in the highest byte. */
    LITTLE {
        @Override
        public int symbol(long info) {
            return (int) info;
        }

        @Override
        public int type(long info) {
            return (int) (info >>> 56);
        }

        @Override
        public long info(int symbol, int type) {
            return ((long) (type & 0xff) << 56) | (symbol & 0xffffffffL);
        }
    }
}
