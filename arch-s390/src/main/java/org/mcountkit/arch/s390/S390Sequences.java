package org.mcountkit.arch.s390;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * gcc's {@code -pg} sequences on s390x, which call {@code _mcount} with {@code brasl %r14} between
 * a save and a restore of {@code %r14}, found from their first byte or from their {@code brasl}:
 *
 * <ul>
 *   <li>gcc 9 and later: {@code stg %r14,8(%r15); brasl %r14,_mcount; lg %r14,8(%r15)} (18 bytes);
 *   <li>older gcc, with a profile counter: {@code stg %r14,8(%r15); larl %r1,.LP; brasl
 *       %r14,_mcount; lg %r14,8(%r15)} (24 bytes), whose {@code brasl} operand is 14 bytes after
 *       the start: the sequence recordmcount.c's {@code mcount_adjust_64 = -14} records.
 * </ul>
 */
final class S390Sequences {

    /** A sequence: where it starts, how long it is, and where its {@code brasl} is. */
    record Sequence(int start, int length, int brasl) {}

    private static final int WITH_COUNTER = 4 * S390Instructions.RIL;
    private static final int PLAIN = 3 * S390Instructions.RIL;

    private S390Sequences() {}

    /** The sequence whose {@code brasl %r14} is at {@code brasl}, if the bytes around it are one. */
    static Optional<Sequence> aroundBrasl(ByteBuffer code, int brasl) {
        int ril = S390Instructions.RIL;
        if (!within(code, brasl, ril + ril) || !S390Instructions.isLgR14(code, brasl + ril)) {
            return Optional.empty();
        }
        int counterStart = brasl - 2 * ril;
        if (within(code, counterStart, WITH_COUNTER)
                && S390Instructions.isStgR14(code, counterStart)
                && S390Instructions.isLarl(code, counterStart + ril)
                && S390Instructions.register(code, counterStart + ril) == 1) {
            return Optional.of(new Sequence(counterStart, WITH_COUNTER, brasl));
        }
        int start = brasl - ril;
        if (within(code, start, PLAIN) && S390Instructions.isStgR14(code, start)) {
            return Optional.of(new Sequence(start, PLAIN, brasl));
        }
        return Optional.empty();
    }

    /** The sequence that starts at {@code start}, if one does. */
    static Optional<Sequence> startingAt(ByteBuffer code, int start) {
        int ril = S390Instructions.RIL;
        if (!within(code, start, PLAIN) || !S390Instructions.isStgR14(code, start)) {
            return Optional.empty();
        }
        for (int brasl : new int[] {start + ril, start + 2 * ril}) {
            if (within(code, brasl, S390Instructions.RIL)
                    && S390Instructions.isBrasl(code, brasl)
                    && S390Instructions.register(code, brasl) == 14) {
                Optional<Sequence> found = aroundBrasl(code, brasl);
                if (found.isPresent() && found.get().start() == start) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean within(ByteBuffer code, int offset, int length) {
        return offset >= 0 && offset + length <= code.limit();
    }
}
