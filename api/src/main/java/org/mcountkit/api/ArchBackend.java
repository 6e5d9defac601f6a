package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;

/**
 * One architecture's facts, found with {@link java.util.ServiceLoader}: a jar that lists its
 * implementation in {@code META-INF/services/org.mcountkit.api.ArchBackend} adds a machine.
 * Implementations hold no state and are safe to share between threads.
 */
public interface ArchBackend {

    /** Short name for messages and {@code --help}, such as {@code x86}. */
    String name();

    /** True when this backend handles files of this machine, class and byte order. */
    boolean supports(ElfTarget target);

    /** Name of the machine for reports, such as {@code x86_64} or {@code i386}. */
    String machineName(ElfTarget target);

    /** Symbol names of the tracing hook the compilers of this machine call. */
    Set<String> hookNames(ElfTarget target);

    /**
     * Judges one relocation against a hook: a call site (its first byte and length, checked
     * against the bytes), a rejection with a reason, or the second relocation of a site.
     */
    Recognition recognize(HookReference reference);

    /** Patch encodings for this target. */
    PatchEncodings encodings(ElfTarget target);

    /** Relocation type of an absolute pointer-sized table entry ({@code R_X86_64_64}, say). */
    int tableRelocationType(ElfTarget target);

    /**
     * True when relocation entries of this target carry explicit addends ({@code SHT_RELA}), as
     * on x86_64, AArch64 and RISC-V; false for {@code SHT_REL} machines such as i386. Used when
     * writing a new object that has no relocation section to copy the kind from.
     */
    default boolean usesRela(ElfTarget target) {
        return true;
    }

    /** The machine's {@code R_*_NONE} type, used to retire the relocation of a NOPed site. */
    default int noneRelocationType(ElfTarget target) {
        return 0;
    }

    /** Name of a relocation type for messages ({@code R_X86_64_PLT32}), or its number. */
    String relocationName(ElfTarget target, int type);

    /**
     * Relaxation handling: true when this relocation lets the linker still move or shrink code
     * in its section (RISC-V's {@code R_RISCV_RELAX}), so offsets recorded before the final link
     * may go stale.
     */
    default boolean allowsRelaxation(ElfTarget target, Relocation relocation) {
        return false;
    }

    /**
     * Weak-hook check: true when this machine's kernels want the hook reference weak (an
     * undefined weak hook keeps the linker from relaxing that one call), so a strong reference
     * is worth reporting. The note is given for objects the link can still relax (see
     * {@link #allowsRelaxation}); elsewhere nothing moves and weak or not makes no difference.
     */
    default boolean hookShouldBeWeak(ElfTarget target) {
        return false;
    }

    /**
     * Post-link decoding: the calls to {@code hookAddress} in {@code code}, the machine code of
     * one function of a linked image that starts at {@code codeAddress}. Offsets of the returned
     * sites are relative to the start of {@code code}. The default finds none.
     */
    default List<Recognition.Site> decodeCalls(ElfTarget target, ByteBuffer code, long codeAddress, long hookAddress) {
        return List.of();
    }

    /**
     * What the bytes at {@code offset} of {@code code} (loaded at {@code codeAddress}) hold: the
     * call to {@code hookAddress} (a negative address when the hook is undefined, so any call
     * form counts), the site's NOP, or something else. The default knows nothing.
     */
    default SiteState classify(ElfTarget target, ByteBuffer code, int offset, long codeAddress, long hookAddress) {
        return SiteState.OTHER;
    }

    /**
     * Length in bytes of the site at {@code offset} of linked code, judged from its bytes: the
     * call or NOP there may be longer than {@link PatchEncodings#siteLength()} when the linker
     * relaxed a longer call form. The default is {@link PatchEncodings#siteLength()}.
     */
    default int siteLength(ElfTarget target, ByteBuffer code, int offset) {
        return encodings(target).siteLength();
    }

    /**
     * Length of the NOP instruction at {@code offset} of {@code code}, or 0 when there is none;
     * used to measure the NOP pads of {@code -fpatchable-function-entry}.
     */
    default int nopLength(ElfTarget target, ByteBuffer code, int offset) {
        return 0;
    }
}
