package org.mcountkit.api;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An ELF machine ({@code e_machine}): its number and its gABI name. The constants are the
 * machines mcountkit's backends take and a few more that messages name (glibc's elf.h numbers);
 * a plugin for another machine makes its own, {@code new ElfMachine(258, "EM_LOONGARCH")}.
 */
public record ElfMachine(int number, String name) {

    public static final ElfMachine EM_SPARC = Known.add(2, "EM_SPARC");
    public static final ElfMachine EM_386 = Known.add(3, "EM_386");
    public static final ElfMachine EM_MIPS = Known.add(8, "EM_MIPS");
    public static final ElfMachine EM_PPC = Known.add(20, "EM_PPC");
    public static final ElfMachine EM_PPC64 = Known.add(21, "EM_PPC64");
    public static final ElfMachine EM_S390 = Known.add(22, "EM_S390");
    public static final ElfMachine EM_ARM = Known.add(40, "EM_ARM");
    public static final ElfMachine EM_SH = Known.add(42, "EM_SH");
    public static final ElfMachine EM_SPARCV9 = Known.add(43, "EM_SPARCV9");
    public static final ElfMachine EM_IA_64 = Known.add(50, "EM_IA_64");
    public static final ElfMachine EM_X86_64 = Known.add(62, "EM_X86_64");
    public static final ElfMachine EM_NDS32 = Known.add(167, "EM_NDS32");
    public static final ElfMachine EM_AARCH64 = Known.add(183, "EM_AARCH64");
    public static final ElfMachine EM_RISCV = Known.add(243, "EM_RISCV");
    public static final ElfMachine EM_CSKY = Known.add(252, "EM_CSKY");
    public static final ElfMachine EM_LOONGARCH = Known.add(258, "EM_LOONGARCH");

    public ElfMachine {
        if (number < 0 || number > 0xffff) {
            throw new IllegalArgumentException("e_machine " + number);
        }
        Objects.requireNonNull(name, "name");
    }

    /** The machine of {@code e_machine} {@code number}: a constant here, or one named by its number. */
    public static ElfMachine of(int number) {
        ElfMachine known = Known.BY_NUMBER.get(number);
        return known != null ? known : new ElfMachine(number, "e_machine " + number);
    }

    /** True when {@code target} is a file of this machine. */
    public boolean is(ElfTarget target) {
        return target.machine().number() == number;
    }

    /** Machines are the same when their numbers are: a file's machine is only its number. */
    @Override
    public boolean equals(Object other) {
        return other instanceof ElfMachine machine && machine.number == number;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(number);
    }

    /** {@code EM_X86_64 (62)}, or {@code e_machine N} for a number without a constant here. */
    @Override
    public String toString() {
        return name.startsWith("EM_") ? name + " (" + number + ")" : name;
    }

    /**
     * The constants, by number: filled as each constant is made, so each machine is written once.
     * A nested class, so that the map exists before the first constant is made.
     */
    private static final class Known {
        static final Map<Integer, ElfMachine> BY_NUMBER = new HashMap<>();

        static ElfMachine add(int number, String name) {
            ElfMachine machine = new ElfMachine(number, name);
            BY_NUMBER.put(number, machine);
            return machine;
        }
    }
}
