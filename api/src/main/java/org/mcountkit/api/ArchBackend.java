package org.mcountkit.api;

import java.util.List;
import java.util.Optional;

/**
 * One architecture, found with {@link java.util.ServiceLoader}: a jar that lists its
 * implementation in {@code META-INF/services/org.mcountkit.api.ArchBackend} adds a machine. A
 * backend is a table of ABI facts ({@link #abi}) plus one decoder ({@link #decode}) and the
 * bytes ftrace writes ({@link #encodings}); core decides everything else, as objtool's generic
 * code does with what each architecture's {@code arch_decode_instruction} says. Implementations
 * hold no state and are safe to share between threads.
 */
public interface ArchBackend {

    /** Short name for messages and {@code --help}, such as {@code x86}. */
    String name();

    /**
     * Every machine variant this backend handles, each with the files it is for: the one
     * statement of which files a backend takes ({@link #supports}, {@link #abi}) and what
     * {@code mcountkit backends} lists. Where {@code e_flags} tell variants apart, the narrower
     * comes first: a file gets the first that {@link Abi#matches} it.
     */
    List<Abi> abis();

    /** True when this backend handles files of this machine, class, byte order and flags. */
    default boolean supports(ElfTarget target) {
        return find(abis(), target) != null;
    }

    /**
     * The ABI facts of the machine variant of {@code target}.
     *
     * @throws IllegalArgumentException when the backend does not {@link #supports support} it
     */
    default Abi abi(ElfTarget target) {
        Abi abi = find(abis(), target);
        if (abi == null) {
            throw new IllegalArgumentException(name() + " does not handle " + target);
        }
        return abi;
    }

    private static Abi find(List<Abi> abis, ElfTarget target) {
        // Indexed, not an iterator: backends ask this per relocation.
        for (int i = 0; i < abis.size(); i++) {
            if (abis.get(i).matches(target)) {
                return abis.get(i);
            }
        }
        return null;
    }

    /**
     * Judges a relocation against a hook that core's reading of {@link #decode} did not settle:
     * one of the {@link Abi#callRelocation call relocations} where decode reads neither a call
     * nor a jump, or a relocation the ABI does not declare. By default a rejection: the bytes
     * there, or a reference that uses the hook's address. A backend overrides it only for what
     * one decoded instruction cannot show (a call spread over several relocations, MIPS's long
     * call, nds32's {@code sethi/ori/jral}): a call site (its first byte and length), a rejection
     * with a reason, or a further relocation of a site.
     */
    default Recognition recognize(HookReference reference) {
        Optional<CallRelocation> call = reference.abi().callRelocation(reference.type());
        if (call.isEmpty()) {
            return reference.notACall("reference (uses the hook's address)");
        }
        if (call.get().field() == CallRelocation.Field.ABSOLUTE) {
            // A word that holds the hook's address for other code (&mcount in a literal pool):
            // the kernel's NOP there would change what that code reads.
            return reference.notACall("on a word no call sequence reads (uses the hook's address)");
        }
        long at = reference.offset() - call.get().fieldOffset();
        StringBuilder bytes = new StringBuilder();
        for (long i = at; i < at + 4 && reference.byteAt(i) >= 0; i++) {
            bytes.append(bytes.length() == 0 ? "" : " ").append(String.format("%02x", reference.byteAt(i)));
        }
        return reference.notACall("on the bytes " + bytes + ", which are not a call");
    }

    /**
     * What the bytes at {@code offset} of {@code code} hold: a call (with its target), the site's
     * NOP, another no-op, or something else. Never throws for bytes it does not know, and reads
     * nothing outside {@code code} (an instruction cut off by the end is {@link Instruction.Other}).
     */
    Instruction decode(Code code, int offset);

    /** The bytes ftrace writes at a site in code of this target and instruction set. */
    PatchEncodings encodings(ElfTarget target, InstructionSet mode);

    /**
     * What {@code record} writes over a hook call in a section that must not be traced (the kernel
     * tool's {@code make_nop}): bytes that end where the {@code length}-byte site at {@code offset}
     * ends and may begin before it, where the compiler's calling sequence does (ARM's
     * {@code push {lr}} before {@code bl __gnu_mcount_nc}, which the kernel tool removes with the
     * call). By default the site's NOP in the code's mode.
     *
     * @throws EncodingException when the bytes there are not a call the kernel tool would remove
     */
    default byte[] untracedCallNop(Code code, int offset, int length) {
        return encodings(code.target(), code.mode()).nop(length);
    }

    /**
     * The {@code e_flags} of a relocatable object that carries data for files of {@code target}
     * (the table {@code table} writes, to be linked with them): by default the target's own; a
     * machine whose linked images carry flags an object must not drops them (ARM's
     * {@code EF_ARM_BE8}, which the linker refuses in its inputs).
     */
    default int objectFlags(ElfTarget target) {
        return target.flags();
    }

    /**
     * Relaxation: true when this relocation lets the linker still move or shrink code in its
     * section (RISC-V's {@code R_RISCV_RELAX}), so offsets recorded before the final link may go
     * stale.
     */
    default boolean allowsRelaxation(ElfTarget target, Relocation relocation) {
        return false;
    }

    /**
     * Where the code of function symbol {@code symbol} starts: its value, less any bits the ABI
     * keeps there (ARM's Thumb bit).
     */
    default long functionAddress(ElfTarget target, Symbol symbol) {
        return symbol.value();
    }

    /** The instruction set the function's code is read in (ARM or Thumb, say); the default one by default. */
    default InstructionSet functionMode(ElfTarget target, Symbol symbol) {
        return InstructionSet.DEFAULT;
    }

    /**
     * How many bytes past its address a call from code sharing its context enters the function:
     * the ELFv2 local entry point, after the TOC set-up a call through the global entry needs
     * (ppc64). {@code patch --call} adds it to its target. 0 by default.
     */
    default long localEntryOffset(ElfTarget target, Symbol symbol) {
        return 0;
    }

    /**
     * The instruction set of the code a mapping symbol starts (ARM's {@code $a} and {@code $t}),
     * or empty when {@code symbol} starts none. Code that no function symbol covers (an
     * overridden weak function's body, whose symbol the linker dropped) is read in the
     * instruction set of the last such symbol before it. Empty by default: one instruction set,
     * or no mapping symbols.
     */
    default Optional<InstructionSet> mappingSymbolMode(ElfTarget target, Symbol symbol) {
        return Optional.empty();
    }
}
