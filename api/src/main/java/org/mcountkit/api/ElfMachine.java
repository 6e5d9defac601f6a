package org.mcountkit.api;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An ELF machine ({@code e_machine}): its number and its gABI name. The constants are the
 * machines mcountkit's backends take and a few more that messages name (glibc's elf.h numbers);
 * a plugin for another machine makes its own, {@code new ElfMachine(258, "EM_LOONGARCH")}.
 */
public record ElfMachine(int number, String name) {

    public static final ElfMachine EM_SPARC = new ElfMachine(2, "EM_SPARC");
    public static final ElfMachine EM_386 = new ElfMachine(3, "EM_386");
    public static final ElfMachine EM_MIPS = new ElfMachine(8, "EM_MIPS");
    public static final ElfMachine EM_PPC = new ElfMachine(20, "EM_PPC");
    public static final ElfMachine EM_PPC64 = new ElfMachine(21, "EM_PPC64");
    public static final ElfMachine EM_S390 = new ElfMachine(22, "EM_S390");
    public static final ElfMachine EM_ARM = new ElfMachine(40, "EM_ARM");
    public static final ElfMachine EM_SH = new ElfMachine(42, "EM_SH");
    public static final ElfMachine EM_SPARCV9 = new ElfMachine(43, "EM_SPARCV9");
    public static final ElfMachine EM_IA_64 = new ElfMachine(50, "EM_IA_64");
    public static final ElfMachine EM_X86_64 = new ElfMachine(62, "EM_X86_64");
    public static final ElfMachine EM_NDS32 = new ElfMachine(167, "EM_NDS32");
    public static final ElfMachine EM_AARCH64 = new ElfMachine(183, "EM_AARCH64");
    public static final ElfMachine EM_RISCV = new ElfMachine(243, "EM_RISCV");
    public static final ElfMachine EM_CSKY = new ElfMachine(252, "EM_CSKY");
    public static final ElfMachine EM_LOONGARCH = new ElfMachine(258, "EM_LOONGARCH");

    private static final Map<Integer, ElfMachine> KNOWN = List.of(
                    EM_SPARC,
                    EM_386,
                    EM_MIPS,
                    EM_PPC,
                    EM_PPC64,
                    EM_S390,
                    EM_ARM,
                    EM_SH,
                    EM_SPARCV9,
                    EM_IA_64,
                    EM_X86_64,
                    EM_NDS32,
                    EM_AARCH64,
                    EM_RISCV,
                    EM_CSKY,
                    EM_LOONGARCH)
            .stream()
            .collect(Collectors.toUnmodifiableMap(ElfMachine::number, Function.identity()));

    /** True when {@code target} is a file of this machine. */
    public boolean is(ElfTarget target) {
        return target.machine() == number;
    }

    /** {@code EM_X86_64 (62)}. */
    @Override
    public String toString() {
        return name + " (" + number + ")";
    }

    /** {@code EM_X86_64 (62)}, or {@code e_machine N} for a number without a constant here. */
    public static String describe(int number) {
        ElfMachine known = KNOWN.get(number);
        return known == null ? "e_machine " + number : known.toString();
    }
}
