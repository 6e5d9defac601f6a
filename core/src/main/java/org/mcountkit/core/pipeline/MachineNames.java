package org.mcountkit.core.pipeline;

import java.util.Map;
import org.mcountkit.api.ElfTarget;

/** Names of well-known {@code e_machine} values, for messages about machines no backend takes. */
public final class MachineNames {

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(2, "EM_SPARC"),
            Map.entry(3, "EM_386"),
            Map.entry(8, "EM_MIPS"),
            Map.entry(20, "EM_PPC"),
            Map.entry(21, "EM_PPC64"),
            Map.entry(22, "EM_S390"),
            Map.entry(40, "EM_ARM"),
            Map.entry(42, "EM_SH"),
            Map.entry(43, "EM_SPARCV9"),
            Map.entry(50, "EM_IA_64"),
            Map.entry(62, "EM_X86_64"),
            Map.entry(167, "EM_NDS32"),
            Map.entry(183, "EM_AARCH64"),
            Map.entry(243, "EM_RISCV"),
            Map.entry(252, "EM_CSKY"),
            Map.entry(258, "EM_LOONGARCH"));

    private MachineNames() {}

    static String describe(ElfTarget target) {
        return machine(target.machine()) + ", " + target.elfClass() + " "
                + target.endian().label() + "-endian";
    }

    /** {@code EM_X86_64 (62)}, or {@code e_machine N} for a number without a well-known name. */
    public static String machine(int machine) {
        String name = NAMES.get(machine);
        return name == null ? "e_machine " + machine : name + " (" + machine + ")";
    }
}
