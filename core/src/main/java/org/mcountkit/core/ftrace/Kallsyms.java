package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;

/**
 * The symbol table {@code scripts/kallsyms} linked into vmlinux, read as {@code kernel/kallsyms.c}
 * reads it at run time, so that a name looked up here is the name the booted kernel prints: the
 * addresses ({@code kallsyms_offsets} from {@code kallsyms_relative_base}, or the older
 * {@code kallsyms_addresses}), and the names, each a length (one byte, or two when the first has
 * its top bit set) and that many indexes into a token table, the first character the symbol's
 * type.
 */
public final class Kallsyms {

    static final Set<String> SYMBOLS = Set.of(
            "kallsyms_num_syms",
            "kallsyms_offsets",
            "kallsyms_relative_base",
            "kallsyms_addresses",
            "kallsyms_names",
            "kallsyms_token_table",
            "kallsyms_token_index");

    private final long[] addresses;
    /** Where each name starts in {@link #names}. */
    private final int[] nameOffsets;

    private final ByteBuffer names;
    private final ByteBuffer tokenTable;
    private final ByteBuffer tokenIndex;

    private Kallsyms(
            long[] addresses, int[] nameOffsets, ByteBuffer names, ByteBuffer tokenTable, ByteBuffer tokenIndex) {
        this.addresses = addresses;
        this.nameOffsets = nameOffsets;
        this.names = names;
        this.tokenTable = tokenTable;
        this.tokenIndex = tokenIndex;
    }

    /** A symbol found for an address: its name (without the type) and how far past its start the address is. */
    public record Hit(String name, char type, long offset) {}

    /**
     * The image's kallsyms tables; empty when it has none ({@code CONFIG_KALLSYMS} off).
     *
     * @throws InputException when the tables are there but do not fit the file
     */
    static Optional<Kallsyms> of(ImageMemory memory, int pointerSize) {
        Optional<Long> countAt = memory.address("kallsyms_num_syms");
        Optional<Long> namesAt = memory.address("kallsyms_names");
        Optional<Long> tableAt = memory.address("kallsyms_token_table");
        Optional<Long> indexAt = memory.address("kallsyms_token_index");
        if (countAt.isEmpty() || namesAt.isEmpty() || tableAt.isEmpty() || indexAt.isEmpty()) {
            return Optional.empty();
        }
        long count = Integer.toUnsignedLong(
                memory.at(countAt.get(), 4, "kallsyms_num_syms").getInt(0));
        if (count > Integer.MAX_VALUE / 8) {
            throw new InputException(Failure.MALFORMED, "kallsyms_num_syms says " + count + " symbols");
        }
        int n = (int) count;
        long[] addresses = addresses(memory, n, pointerSize);
        ByteBuffer tokenIndex = memory.at(indexAt.get(), 256 * 2, "kallsyms_token_index");
        // The token table ends where the index starts in every layout scripts/kallsyms writes;
        // each token is read up to its NUL, so a bound past the last one is enough.
        long tableLength = indexAt.get() - tableAt.get();
        if (tableLength <= 0 || tableLength > 1 << 20) {
            tableLength = 256 * 256;
        }
        ByteBuffer tokenTable = memory.at(tableAt.get(), tableLength, "kallsyms_token_table");
        ByteBuffer names = namesFrom(memory, namesAt.get());
        int[] offsets = new int[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            offsets[i] = at;
            if (at >= names.limit()) {
                throw new InputException(Failure.MALFORMED, "kallsyms_names ends before symbol " + i + " of " + n);
            }
            int len = names.get(at) & 0xff;
            at++;
            if ((len & 0x80) != 0) {
                len = (len & 0x7f) | ((names.get(at) & 0xff) << 7);
                at++;
            }
            at += len;
        }
        return Optional.of(new Kallsyms(addresses, offsets, names, tokenTable, tokenIndex));
    }

    private static long[] addresses(ImageMemory memory, int n, int pointerSize) {
        long[] addresses = new long[n];
        Optional<Long> offsetsAt = memory.address("kallsyms_offsets");
        Optional<Long> baseAt = memory.address("kallsyms_relative_base");
        if (offsetsAt.isPresent() && baseAt.isPresent()) {
            ByteBuffer offsets = memory.at(offsetsAt.get(), 4L * n, "kallsyms_offsets");
            long base = memory.pointer(baseAt.get(), pointerSize, "kallsyms_relative_base");
            // With --absolute-percpu (x86_64 SMP), every non-per-CPU symbol is stored negative;
            // without it every offset is an unsigned distance from the base.
            boolean absolutePercpu = false;
            for (int i = 0; i < n && !absolutePercpu; i++) {
                absolutePercpu = offsets.getInt(4 * i) < 0;
            }
            long mask = pointerSize == 8 ? -1L : 0xffffffffL;
            for (int i = 0; i < n; i++) {
                int o = offsets.getInt(4 * i);
                long a;
                if (!absolutePercpu) {
                    a = base + Integer.toUnsignedLong(o);
                } else if (o >= 0) {
                    a = o;
                } else {
                    a = base - 1 - o;
                }
                addresses[i] = a & mask;
            }
            return addresses;
        }
        Optional<Long> absoluteAt = memory.address("kallsyms_addresses");
        if (absoluteAt.isEmpty()) {
            throw new InputException(
                    Failure.MALFORMED, "kallsyms_names without kallsyms_offsets nor kallsyms_addresses");
        }
        memory.at(absoluteAt.get(), (long) pointerSize * n, "kallsyms_addresses");
        for (int i = 0; i < n; i++) {
            addresses[i] = memory.pointer(absoluteAt.get() + (long) pointerSize * i, pointerSize, "kallsyms_addresses");
        }
        return addresses;
    }

    /** {@code kallsyms_names} up to the end of its section: its length is not stored. */
    private static ByteBuffer namesFrom(ImageMemory memory, long address) {
        return memory.at(address, memory.bytesLeftInSection(address), "kallsyms_names");
    }

    public int size() {
        return addresses.length;
    }

    /**
     * The symbol {@code get_symbol_pos} finds for {@code address}: the last one at or below it,
     * and of several at that address (aliases) the first; empty below the first symbol.
     */
    public Optional<Hit> lookup(long address) {
        int n = addresses.length;
        if (n == 0 || Long.compareUnsigned(address, addresses[0]) < 0) {
            return Optional.empty();
        }
        int low = 0;
        int high = n;
        while (high - low > 1) {
            int mid = low + (high - low) / 2;
            if (Long.compareUnsigned(addresses[mid], address) <= 0) {
                low = mid;
            } else {
                high = mid;
            }
        }
        while (low > 0 && addresses[low - 1] == addresses[low]) {
            low--;
        }
        String full = name(low);
        return Optional.of(
                full.isEmpty()
                        ? new Hit("", '?', address - addresses[low])
                        : new Hit(full.substring(1), full.charAt(0), address - addresses[low]));
    }

    /** Symbol {@code i}'s expanded name, its type character first. */
    String name(int i) {
        int at = nameOffsets[i];
        int len = names.get(at) & 0xff;
        at++;
        if ((len & 0x80) != 0) {
            len = (len & 0x7f) | ((names.get(at) & 0xff) << 7);
            at++;
        }
        StringBuilder out = new StringBuilder();
        for (int k = 0; k < len; k++) {
            int token = tokenIndex.getShort(2 * (names.get(at + k) & 0xff)) & 0xffff;
            for (int t = token; t < tokenTable.limit() && tokenTable.get(t) != 0; t++) {
                out.append((char) (tokenTable.get(t) & 0xff));
            }
        }
        return new String(out.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    long address(int i) {
        return addresses[i];
    }
}
