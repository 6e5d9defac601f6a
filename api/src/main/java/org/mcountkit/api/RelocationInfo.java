package org.mcountkit.api;

/**
 * How a machine packs the symbol and the type of a relocation into {@code r_info}. Most follow
 * the gABI ({@link #ELF32}, {@link #ELF64}); mips64 packs a symbol, a special symbol and three
 * types in its own order, so its backend supplies its own.
 */
public interface RelocationInfo {

    /** The symbol index in {@code info}, the {@code r_info} word as read in the file's byte order. */
    int symbol(long info);

    /** The (first) relocation type in {@code info}. */
    int type(long info);

    /** The {@code r_info} word for {@code symbol} and {@code type}. */
    long info(int symbol, int type);

    /** The gABI's {@code ELF32_R_SYM}, {@code ELF32_R_TYPE} and {@code ELF32_R_INFO}. */
    RelocationInfo ELF32 = new RelocationInfo() {
        @Override
        public int symbol(long info) {
            return (int) ((info & 0xffffffffL) >>> 8);
        }

        @Override
        public int type(long info) {
            return (int) (info & 0xff);
        }

        @Override
        public long info(int symbol, int type) {
            return (((long) symbol << 8) | (type & 0xff)) & 0xffffffffL;
        }
    };

    /** The gABI's {@code ELF64_R_SYM}, {@code ELF64_R_TYPE} and {@code ELF64_R_INFO}. */
    RelocationInfo ELF64 = new RelocationInfo() {
        @Override
        public int symbol(long info) {
            return (int) (info >>> 32);
        }

        @Override
        public int type(long info) {
            return (int) info;
        }

        @Override
        public long info(int symbol, int type) {
            return ((long) symbol << 32) | (type & 0xffffffffL);
        }
    };

    /** The gABI's packing for files of this class. */
    static RelocationInfo standard(ElfClass elfClass) {
        return elfClass == ElfClass.ELF64 ? ELF64 : ELF32;
    }
}
