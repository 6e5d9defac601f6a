package org.mcountkit.core.ftrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordMemory;

/**
 * The rules by which a kernel's ftrace turns its table into records and names them, for one
 * release, machine and configuration. Each is read from the kernel's sources (6.1.y and 6.12.y as
 * Debian ships them); where a rule depends on an option the configuration does not give, the
 * assumption made is kept in {@link #assumptions}.
 *
 * <ul>
 *   <li>{@code ftrace_process_locs()} ({@code kernel/trace/ftrace.c}) skips zero words; from 6.12
 *       it also skips, for vmlinux, an address outside {@code _stext.._etext} and
 *       {@code _sinittext.._einittext}, and its boot line ({@code ftrace: allocating N entries})
 *       counts the records kept, where 6.1's counts every word.
 *   <li>It sorts vmlinux's records at boot unless {@code CONFIG_BUILDTIME_MCOUNT_SORT} (x86 and
 *       arm select it in 6.1, arm64 too in 6.12), and a module's always.
 *   <li>{@code ftrace_call_adjust()}: arm clears the Thumb bit of each word; the other machines
 *       here keep the word as it is (their {@code asm/ftrace.h} under the options these kernels use).
 *   <li>{@code FTRACE_MCOUNT_MAX_OFFSET}: on x86 {@code ENDBR_INSN_SIZE} (4 with
 *       {@code CONFIG_X86_KERNEL_IBT}, else 0); on powerpc from 6.12, 16 with
 *       {@code MPROFILE_KERNEL} or patchable entries, 8 on 32-bit. Where it is defined,
 *       {@code print_rec()} lists a record further than that from its symbol, or with none, as
 *       {@code __ftrace_invalid_address___OFFSET}; elsewhere {@code %ps} prints the symbol, or
 *       {@code 0xADDRESS} without one.
 *   <li>{@code ftrace_free_init_mem()} drops the records in {@code __init_begin.. __init_end}
 *       once boot is done; {@code do_init_module()} those of a module's init region.
 *   <li>The module loader's init sections ({@code module_init_section()}): names starting
 *       {@code .init}, none on powerpc64 ({@code arch/powerpc/kernel/module_64.c}); {@code .exit}
 *       ones too without {@code CONFIG_MODULE_UNLOAD}. Mapping symbols it skips
 *       ({@code is_mapping_symbol()}): 6.1 {@code .L*} and {@code $a $t $x $d} (alone or with a
 *       {@code .} suffix), 6.12 {@code .L*}, {@code L0*} and every {@code $*}.
 * </ul>
 */
public record FtraceRules(
        KernelRelease release,
        boolean skipsOutsideText,
        boolean bootLineCountsKept,
        boolean sortsAtBoot,
        long callAdjustMask,
        OptionalLong maxOffset,
        boolean moduleInitSections,
        boolean moduleExitIsInit,
        RecordMemory memory,
        List<String> assumptions) {

    public FtraceRules {
        assumptions = List.copyOf(assumptions);
    }

    /** The rules of {@code release} for {@code target}'s kernels configured as {@code config}; {@code ibtSeal}: the image has x86's {@code __ibt_endbr_seal}. */
    static FtraceRules of(KernelRelease release, ElfTarget target, KernelConfig config, boolean ibtSeal) {
        List<String> assumptions = new ArrayList<>();
        boolean at612 = release.atLeast(6, 12);
        boolean x86 = ElfMachine.EM_X86_64.is(target) || ElfMachine.EM_386.is(target);
        boolean arm = ElfMachine.EM_ARM.is(target);
        boolean arm64 = ElfMachine.EM_AARCH64.is(target);
        boolean ppc64 = ElfMachine.EM_PPC64.is(target);
        boolean ppc = ElfMachine.EM_PPC.is(target) || ppc64;

        boolean buildTimeSort = config.enabled("BUILDTIME_MCOUNT_SORT").orElseGet(() -> {
            boolean selected = x86 || arm || (arm64 && at612);
            assumptions.add("BUILDTIME_MCOUNT_SORT " + (selected ? "on" : "off") + " (this machine's default)");
            return selected;
        });

        OptionalLong maxOffset = OptionalLong.empty();
        if (x86) {
            boolean ibt = config.enabled("X86_KERNEL_IBT").orElseGet(() -> {
                assumptions.add("X86_KERNEL_IBT "
                        + (ibtSeal ? "on (the image has __ibt_endbr_seal)" : "off (no __ibt_endbr_seal)"));
                return ibtSeal;
            });
            maxOffset = OptionalLong.of(ibt ? 4 : 0);
        } else if (ppc && at612) {
            if (!ppc64) {
                maxOffset = OptionalLong.of(8);
            } else {
                boolean near = config.enabled("MPROFILE_KERNEL").isPresent()
                        ? config.on("MPROFILE_KERNEL") || config.on("ARCH_USING_PATCHABLE_FUNCTION_ENTRY")
                        : assumeProfileKernel(target, assumptions);
                if (near) {
                    maxOffset = OptionalLong.of(16);
                }
            }
        }

        boolean unload = config.enabled("MODULE_UNLOAD").orElseGet(() -> {
            assumptions.add("MODULE_UNLOAD on (needed to remove modules)");
            return true;
        });
        RecordMemory memory = new RecordMemory(
                pageSize(target, config, assumptions), entrySize(target, config, arm, ppc, assumptions));
        return new FtraceRules(
                release,
                at612,
                at612,
                !buildTimeSort,
                arm ? ~1L : -1L,
                maxOffset,
                !ppc64,
                !unload,
                memory,
                assumptions);
    }

    /** The options that set {@code PAGE_SIZE}, each machine's and 6.12's generic ones, with their sizes. */
    private static final List<Map.Entry<String, Integer>> PAGE_SIZE_OPTIONS = List.of(
            Map.entry("ARM64_16K_PAGES", 16384),
            Map.entry("ARM64_64K_PAGES", 65536),
            Map.entry("PPC_16K_PAGES", 16384),
            Map.entry("PPC_64K_PAGES", 65536),
            Map.entry("PPC_256K_PAGES", 262144),
            Map.entry("PAGE_SIZE_8KB", 8192),
            Map.entry("PAGE_SIZE_16KB", 16384),
            Map.entry("PAGE_SIZE_32KB", 32768),
            Map.entry("PAGE_SIZE_64KB", 65536),
            Map.entry("PAGE_SIZE_256KB", 262144));

    /** {@code PAGE_SIZE}: sparc64's fixed 8 KiB, else the configured size, else 4 KiB. */
    private static int pageSize(ElfTarget target, KernelConfig config, List<String> assumptions) {
        if (ElfMachine.EM_SPARCV9.is(target)) {
            return 8192;
        }
        if (!config.known()) {
            assumptions.add("PAGE_SIZE 4096 (the usual default)");
            return 4096;
        }
        return PAGE_SIZE_OPTIONS.stream()
                .filter(o -> config.on(o.getKey()))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(4096);
    }

    /**
     * {@code sizeof(struct dyn_ftrace)}: {@code ip} and {@code flags}, and {@code struct
     * dyn_arch_ftrace}, which holds a module pointer on powerpc, and on arm with
     * {@code CONFIG_ARM_MODULE_PLTS}; empty on the others here.
     */
    private static int entrySize(
            ElfTarget target, KernelConfig config, boolean arm, boolean ppc, List<String> assumptions) {
        int word = target.pointerSize();
        boolean modulePointer = ppc
                || (arm
                        && config.enabled("ARM_MODULE_PLTS").orElseGet(() -> {
                            assumptions.add("ARM_MODULE_PLTS on (its default with modules)");
                            return true;
                        }));
        return (modulePointer ? 3 : 2) * word;
    }

    /** ppc64 ELFv2 (little-endian) kernels built by gcc take -mprofile-kernel; ELFv1 ones cannot. */
    private static boolean assumeProfileKernel(ElfTarget target, List<String> assumptions) {
        boolean elfv2 = (target.flags() & 3) == 2 || target.endian() == org.mcountkit.api.Endian.LITTLE;
        assumptions.add("MPROFILE_KERNEL " + (elfv2 ? "on (an ELFv2 kernel, as gcc builds them)" : "off (ELFv1)"));
        return elfv2;
    }

    /** Whether a module section of this name is laid out in the init region, freed after init. */
    boolean initLayoutSection(String name) {
        if (moduleExitIsInit && name.startsWith(".exit")) {
            return true;
        }
        return moduleInitSections && name.startsWith(".init");
    }

    /** Whether the module loader's kallsyms skips a symbol of this name. */
    boolean mappingSymbol(String name) {
        if (name.startsWith(".L")) {
            return true;
        }
        if (release.atLeast(6, 12)) {
            return name.startsWith("L0") || name.startsWith("$");
        }
        return name.length() >= 2
                && name.charAt(0) == '$'
                && "axtd".indexOf(name.charAt(1)) >= 0
                && (name.length() == 2 || name.charAt(2) == '.');
    }
}
