package org.mcountkit.core.ftrace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordMemory;

/** ftrace's rules per release, machine and configuration, each as the kernel's sources state it (FtraceRules' list). */
class FtraceRulesTest {

    private static final KernelRelease V61 = new KernelRelease(6, 1);
    private static final KernelRelease V612 = new KernelRelease(6, 12);
    private static final ElfTarget X86_64 = new ElfTarget(ElfMachine.EM_X86_64, ElfClass.ELF64, Endian.LITTLE, 0);
    private static final ElfTarget ARM = new ElfTarget(ElfMachine.EM_ARM, ElfClass.ELF32, Endian.LITTLE, 0);
    private static final ElfTarget PPC64LE = new ElfTarget(ElfMachine.EM_PPC64, ElfClass.ELF64, Endian.LITTLE, 2);
    private static final ElfTarget PPC64 = new ElfTarget(ElfMachine.EM_PPC64, ElfClass.ELF64, Endian.BIG, 1);
    private static final ElfTarget MIPS = new ElfTarget(ElfMachine.EM_MIPS, ElfClass.ELF32, Endian.BIG, 0);

    private static KernelConfig config(String... enabled) {
        Map<String, String> values = new java.util.HashMap<>();
        for (String o : enabled) {
            values.put("CONFIG_" + o, "y");
        }
        values.put("CONFIG_DYNAMIC_FTRACE", "y");
        return new KernelConfig(values, ".config");
    }

    @Test
    void sixTwelveSkipsAddressesOutsideTextAndCountsTheKeptOnesInTheBootLine() {
        FtraceRules old = FtraceRules.of(V61, MIPS, KernelConfig.UNKNOWN, false);
        FtraceRules now = FtraceRules.of(V612, MIPS, KernelConfig.UNKNOWN, false);

        assertFalse(old.skipsOutsideText());
        assertFalse(old.bootLineCountsKept());
        assertTrue(now.skipsOutsideText());
        assertTrue(now.bootLineCountsKept());
    }

    /** sizeof(struct dyn_ftrace) from each asm/ftrace.h, PAGE_SIZE from the options (sparc64's fixed 8 KiB). */
    @Test
    void recordMemoryIsTheMachinesPageAndDynFtraceSize() {
        ElfTarget sparc64 = new ElfTarget(ElfMachine.EM_SPARCV9, ElfClass.ELF64, Endian.BIG, 0);
        ElfTarget arm64 = new ElfTarget(ElfMachine.EM_AARCH64, ElfClass.ELF64, Endian.LITTLE, 0);

        assertEquals(
                new RecordMemory(4096, 16),
                FtraceRules.of(V61, X86_64, config(), false).memory());
        assertEquals(
                new RecordMemory(4096, 24),
                FtraceRules.of(V61, PPC64LE, config(), false).memory());
        assertEquals(
                new RecordMemory(65536, 24),
                FtraceRules.of(V612, PPC64, config("PPC_64K_PAGES"), false).memory());
        assertEquals(
                new RecordMemory(4096, 8),
                FtraceRules.of(V61, ARM, config(), false).memory());
        assertEquals(
                new RecordMemory(4096, 12),
                FtraceRules.of(V61, ARM, config("ARM_MODULE_PLTS"), false).memory());
        assertEquals(
                new RecordMemory(4096, 8),
                FtraceRules.of(V61, MIPS, config(), false).memory());
        assertEquals(
                new RecordMemory(8192, 16),
                FtraceRules.of(V61, sparc64, config(), false).memory());
        assertEquals(
                new RecordMemory(65536, 16),
                FtraceRules.of(V61, arm64, config("ARM64_64K_PAGES"), false).memory());
        assertTrue(FtraceRules.of(V61, X86_64, KernelConfig.UNKNOWN, false)
                .assumptions()
                .contains("PAGE_SIZE 4096 (the usual default)"));
    }

    @Test
    void x86sInvalidRuleIsTheEndbrSize() {
        assertEquals(
                OptionalLong.of(0), FtraceRules.of(V61, X86_64, config(), true).maxOffset());
        assertEquals(
                OptionalLong.of(4),
                FtraceRules.of(V61, X86_64, config("X86_KERNEL_IBT"), false).maxOffset());
        assertEquals(
                OptionalLong.of(4),
                FtraceRules.of(V61, X86_64, KernelConfig.UNKNOWN, true).maxOffset());
        assertEquals(
                OptionalLong.of(0),
                FtraceRules.of(V61, X86_64, KernelConfig.UNKNOWN, false).maxOffset());
    }

    @Test
    void powerpcHasAnInvalidRuleFromSixTwelveOnly() {
        assertEquals(
                OptionalLong.empty(),
                FtraceRules.of(V61, PPC64LE, config("MPROFILE_KERNEL"), false).maxOffset());
        assertEquals(
                OptionalLong.of(16),
                FtraceRules.of(V612, PPC64LE, config("MPROFILE_KERNEL"), false).maxOffset());
        assertEquals(
                OptionalLong.empty(),
                FtraceRules.of(V612, PPC64, config(), false).maxOffset());
        assertEquals(
                OptionalLong.empty(),
                FtraceRules.of(V612, MIPS, config(), false).maxOffset());
    }

    @Test
    void sortedAtBootUnlessBuildTimeSort() {
        assertFalse(FtraceRules.of(V61, X86_64, KernelConfig.UNKNOWN, false).sortsAtBoot());
        assertTrue(FtraceRules.of(V61, MIPS, KernelConfig.UNKNOWN, false).sortsAtBoot());
        assertTrue(FtraceRules.of(V61, X86_64, config(), false).sortsAtBoot(), "a configuration without the option");
        assertFalse(FtraceRules.of(V61, MIPS, config("BUILDTIME_MCOUNT_SORT"), false)
                .sortsAtBoot());
    }

    @Test
    void armClearsTheThumbBit() {
        assertEquals(~1L, FtraceRules.of(V61, ARM, KernelConfig.UNKNOWN, false).callAdjustMask());
        assertEquals(-1L, FtraceRules.of(V61, MIPS, KernelConfig.UNKNOWN, false).callAdjustMask());
    }

    @Test
    void moduleInitSectionsAndMappingSymbolsPerRelease() {
        FtraceRules mips61 = FtraceRules.of(V61, MIPS, config("MODULE_UNLOAD"), false);
        FtraceRules mips612 = FtraceRules.of(V612, MIPS, config(), false);
        FtraceRules ppc64 = FtraceRules.of(V61, PPC64, config("MODULE_UNLOAD"), false);

        assertTrue(mips61.initLayoutSection(".init.text"));
        assertFalse(mips61.initLayoutSection(".exit.text"));
        assertTrue(mips612.initLayoutSection(".exit.text"), "without MODULE_UNLOAD .exit is init");
        assertFalse(ppc64.initLayoutSection(".init.text"));
        for (String name : List.of(".L42", "$a", "$t.1", "$x", "$d")) {
            assertTrue(mips61.mappingSymbol(name), name);
            assertTrue(mips612.mappingSymbol(name), name);
        }
        assertFalse(mips61.mappingSymbol("$foo"));
        assertTrue(mips612.mappingSymbol("$foo"));
        assertFalse(mips61.mappingSymbol("L0x"));
        assertTrue(mips612.mappingSymbol("L0x"));
        assertFalse(mips612.mappingSymbol("kcweak_use"));
    }
}
