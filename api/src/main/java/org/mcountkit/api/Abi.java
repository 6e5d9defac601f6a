package org.mcountkit.api;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The ABI facts of one machine variant (x86_64, i386, aarch64_be...) that core needs besides
 * decoding: its name in reports, the files it is for (machine, class, byte order and, where the
 * variant is told by {@code e_flags}, those bits: {@link #matches}), the byte order of its
 * instruction words ({@link Code#word} reads in it), the hook symbols its compilers call, its relocation types, the
 * type of an absolute pointer-sized table word, its NONE type, whether its objects carry explicit
 * addends ({@code SHT_RELA}), how {@code r_info} is packed, and whether its kernels want the hook
 * reference weak (an undefined weak hook keeps the linker from relaxing that one call), and
 * whether its decoder delimits instructions or code must be scanned byte by byte, which
 * dynamic relocations fill a pointer slot (a GOT entry) of a linked image, and how a table word
 * may name a function (ARM's Thumb bit: {@link #functionsNeverBases},
 * {@link #functionTableRelocation}), and whether {@code record} leaves hook calls in untraced sections
 * alone ({@link #untracedCalls}), which section holds function descriptors
 * ({@link #descriptorSection}; empty where a function symbol's value is its code), and whether a RELA
 * machine's linker takes addends from the relocated word (both in {@link #addends}). A backend
 * keeps one constant per variant, built with {@link #builder}, so it reads as a table.
 */
public record Abi(
        String machineName,
        ElfMachine machine,
        ElfClass elfClass,
        Endian endian,
        Endian instructionOrder,
        int variantFlagsMask,
        int variantFlags,
        Set<String> hooks,
        RelocationTypes relocations,
        Map<Integer, CallRelocation> callRelocations,
        Set<Integer> companionRelocations,
        int tableRelocation,
        int noneRelocation,
        AddendPlacement addends,
        RelocationInfo relocationInfo,
        boolean hookShouldBeWeak,
        CodeWalk codeWalk,
        SlotRelocations slotRelocations,
        boolean functionsNeverBases,
        int functionTableRelocation,
        UntracedCalls untracedCalls,
        Optional<String> descriptorSection) {

    public Abi {
        Objects.requireNonNull(machineName, "machineName");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(elfClass, "elfClass");
        Objects.requireNonNull(endian, "endian");
        Objects.requireNonNull(instructionOrder, "instructionOrder");
        hooks = Set.copyOf(hooks);
        callRelocations = Map.copyOf(callRelocations);
        companionRelocations = Set.copyOf(companionRelocations);
        Objects.requireNonNull(relocations, "relocations");
        Objects.requireNonNull(relocationInfo, "relocationInfo");
        Objects.requireNonNull(codeWalk, "codeWalk");
        Objects.requireNonNull(slotRelocations, "slotRelocations");
        Objects.requireNonNull(untracedCalls, "untracedCalls");
        Objects.requireNonNull(addends, "addends");
        Objects.requireNonNull(descriptorSection, "descriptorSection");
    }

    /** The name of a relocation type for messages ({@code R_X86_64_PLT32}), or its number. */
    public String relocationName(int type) {
        return relocations.name(type);
    }

    /** How relocation {@code type} marks a call, where the ABI declares it one. */
    public Optional<CallRelocation> callRelocation(int type) {
        return Optional.ofNullable(callRelocations.get(type));
    }

    /** Whether the machine's relocation sections are {@code SHT_RELA}. */
    public boolean rela() {
        return addends.rela();
    }

    /** True when {@code type} is the relocation that fills a slot with the load address plus its addend. */
    public boolean isRelative(int type) {
        return slotRelocations.isRelative(type);
    }

    /** True when this variant's facts apply to files of {@code target}. */
    public boolean matches(ElfTarget target) {
        return machine.is(target)
                && target.elfClass() == elfClass
                && target.endian() == endian
                && (target.flags() & variantFlagsMask) == variantFlags;
    }

    /** The files this variant is for, as {@code mcountkit backends} lists them. */
    public ElfTarget target() {
        return new ElfTarget(machine, elfClass, endian, variantFlags);
    }

    /**
     * Starts the facts of a machine variant named {@code machineName}, for files of
     * {@code machine}, {@code elfClass} and {@code endian}.
     */
    public static Builder builder(String machineName, ElfMachine machine, ElfClass elfClass, Endian endian) {
        return new Builder(machineName, machine, elfClass, endian);
    }

    /** Collects an {@link Abi}; every fact without a setter call keeps the gABI's default. */
    public static final class Builder {
        private final String machineName;
        private final ElfMachine machine;
        private final ElfClass elfClass;
        private final Endian endian;
        private Endian instructionOrder;
        private int variantFlagsMask;
        private int variantFlags;
        private Set<String> hooks = Set.of();
        private RelocationTypes relocations;
        private final Map<Integer, CallRelocation> callRelocations = new HashMap<>();
        private final Set<Integer> companionRelocations = new HashSet<>();
        private int tableRelocation = -1;
        private int noneRelocation;
        private AddendPlacement addends = AddendPlacement.IN_RELOCATION;
        private RelocationInfo relocationInfo;
        private boolean hookShouldBeWeak;
        private CodeWalk codeWalk = CodeWalk.BY_INSTRUCTION;
        private SlotRelocations slotRelocations = SlotRelocations.none();
        private boolean functionsNeverBases;
        private int functionTableRelocation = -1;
        private UntracedCalls untracedCalls = UntracedCalls.NOPPED;
        private Optional<String> descriptorSection = Optional.empty();

        private Builder(String machineName, ElfMachine machine, ElfClass elfClass, Endian endian) {
            this.machineName = machineName;
            this.machine = machine;
            this.elfClass = elfClass;
            this.endian = endian;
            this.instructionOrder = endian;
            this.relocationInfo = RelocationInfo.standard(elfClass);
        }

        /**
         * The variant is told by {@code e_flags}: it takes only files whose {@code mask} bits are
         * {@code value} (ppc64's ELFv2 ABI: {@code EF_PPC64_ABI} bits 2). Without it any flags
         * match; a backend lists such a variant before the one that takes the rest.
         */
        public Builder variantFlags(int mask, int value) {
            this.variantFlagsMask = mask;
            this.variantFlags = value & mask;
            return this;
        }

        /**
         * Instruction words are stored in {@code order} whatever the data's (A64 and RISC-V code is
         * little-endian, nds32's big-endian, in either data order). By default the data's.
         */
        public Builder instructionsIn(Endian order) {
            this.instructionOrder = order;
            return this;
        }

        /** Every spelling of the hook the machine's compilers call ({@code mcount}, {@code __fentry__}). */
        public Builder hooks(String... names) {
            this.hooks = Set.of(names);
            return this;
        }

        /** The relocation types, and which of them is an absolute pointer-sized word ({@code R_X86_64_64}). */
        public Builder relocations(RelocationTypes types, RelocationType tableWord) {
            this.relocations = types;
            this.tableRelocation = tableWord.number();
            return this;
        }

        /**
         * Relocations that mark a call {@link ArchBackend#decode} reads, of the form {@code call}:
         * core decodes there, and a {@link Instruction.Call} is the site, of the call's length;
         * anything else, and every other relocation, goes to {@link ArchBackend#recognize}, which
         * says why it is not a call or finds the forms decode does not know.
         */
        public Builder calls(CallRelocation call, RelocationType... types) {
            for (RelocationType type : types) {
                callRelocations.put(type.number(), call);
            }
            return this;
        }

        /** Compilers' calls starting {@code fieldOffset} bytes before the relocated field ({@link CallRelocation#at}). */
        public Builder calls(int fieldOffset, RelocationType... types) {
            return calls(CallRelocation.at(fieldOffset), types);
        }

        /**
         * Calls in instruction set {@code mode}, for relocations that say which one the call is in
         * (ARM's {@code R_ARM_CALL} an A32 {@code bl}, {@code R_ARM_THM_CALL} a T32 one).
         */
        public Builder calls(int fieldOffset, InstructionSet mode, RelocationType... types) {
            return calls(CallRelocation.at(fieldOffset).in(mode), types);
        }

        /**
         * Relocations that mark a call only in a linked image, where the linker relaxed the
         * compiler's call to a shorter form (RISC-V's {@code R_RISCV_JAL}); core refuses them in an
         * object.
         */
        public Builder linkedCalls(int fieldOffset, RelocationType... types) {
            return calls(CallRelocation.at(fieldOffset).linkerOnly(), types);
        }

        /**
         * Relocations that accompany a call's own relocation at the same place and mark nothing
         * of their own (RISC-V's {@code R_RISCV_RELAX}): neither a site nor a reference.
         */
        public Builder companions(RelocationType... types) {
            for (RelocationType type : types) {
                companionRelocations.add(type.number());
            }
            return this;
        }

        /** The machine's {@code R_*_NONE}, when it is not 0. */
        public Builder none(RelocationType none) {
            this.noneRelocation = none.number();
            return this;
        }

        /** Objects keep addends in the relocated bytes ({@code SHT_REL}), as on i386. */
        public Builder rel() {
            this.addends = AddendPlacement.IN_WORD;
            return this;
        }

        /** {@code r_info} is packed the machine's own way (mips64). */
        public Builder relocationInfo(RelocationInfo info) {
            this.relocationInfo = info;
            return this;
        }

        /** The machine's kernels want an undefined weak hook, so that the linker leaves its calls alone. */
        public Builder hookShouldBeWeak() {
            this.hookShouldBeWeak = true;
            return this;
        }

        /**
         * Instructions have no fixed length or alignment and the decoder does not delimit them
         * (x86): a walk through code tries every byte, so a call is never hidden by a misread
         * instruction before it.
         */
        public Builder scannedByteByByte() {
            this.codeWalk = CodeWalk.BY_BYTE;
            return this;
        }

        /**
         * The dynamic relocations that fill a pointer slot of a linked image: {@code relative}
         * with the load address plus the addend ({@code R_X86_64_RELATIVE}), each of
         * {@code symbolAddress} with a symbol's address ({@code R_X86_64_GLOB_DAT},
         * {@code R_X86_64_JUMP_SLOT}). With them core can tell that a call through a slot
         * ({@code call *slot(%rip)}) goes to the hook.
         */
        public Builder slotRelocations(RelocationType relative, RelocationType... symbolAddress) {
            Set<Integer> types = new HashSet<>();
            for (RelocationType t : symbolAddress) {
                types.add(t.number());
            }
            this.slotRelocations = new SlotRelocations(OptionalInt.of(relative.number()), types);
            return this;
        }

        /**
         * A table word relocated against a function symbol does not hold the function's address
         * (ARM: R_ARM_ABS32 sets the Thumb bit of a Thumb function), so {@code record} never bases
         * its entries on one, as recordmcount.c skips STT_FUNC on EM_ARM.
         */
        public Builder functionsNeverBases() {
            this.functionsNeverBases = true;
            return this;
        }

        /**
         * The type {@code table} relocates a word naming a function with, when the table word's
         * type would not give the address ({@code R_ARM_ABS32_NOI}: {@code S + A}, no Thumb bit).
         */
        public Builder functionTableWord(RelocationType type) {
            this.functionTableRelocation = type.number();
            return this;
        }

        /**
         * The kernel tool leaves hook calls in untraced sections as they are (recordmcount.c has a
         * {@code make_nop} only for x86, arm and arm64), so {@code record} reports them and changes
         * nothing there.
         */
        public Builder keepsUntracedCalls() {
            this.untracedCalls = UntracedCalls.KEPT;
            return this;
        }

        /**
         * Function symbols of linked images whose value lies in section {@code name} name a
         * function descriptor, whose first pointer-sized word is the address of the function's code
         * (64-bit PowerPC ELFv1 ABI, 3.2.5 "Function Descriptors": {@code .opd}).
         */
        public Builder functionDescriptors(String name) {
            this.descriptorSection = Optional.of(name);
            return this;
        }

        /**
         * The machine's relocations are RELA but {@code partial_inplace}: the linker adds the word
         * already in place and ignores {@code r_addend} (BFD's elf32-sh howtos), while a kernel's
         * module loader adds both (arch/sh/kernel/module.c). A table word therefore holds its
         * offset itself, with {@code r_addend} 0, as gas writes {@code .long sym+off}; a table
         * read back takes the sum of both.
         */
        public Builder addendsInPlace() {
            this.addends = AddendPlacement.IN_WORD_OF_RELA;
            return this;
        }

        public Abi build() {
            if (relocations == null) {
                throw new IllegalStateException(machineName + ": no relocation types");
            }
            return new Abi(
                    machineName,
                    machine,
                    elfClass,
                    endian,
                    instructionOrder,
                    variantFlagsMask,
                    variantFlags,
                    hooks,
                    relocations,
                    callRelocations,
                    companionRelocations,
                    tableRelocation,
                    noneRelocation,
                    addends,
                    relocationInfo,
                    hookShouldBeWeak,
                    codeWalk,
                    slotRelocations,
                    functionsNeverBases,
                    functionTableRelocation < 0 ? tableRelocation : functionTableRelocation,
                    untracedCalls,
                    descriptorSection);
        }
    }
}
