package org.mcountkit.core.ftrace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfImage;

/**
 * What arm64's module loader makes of the four sections scripts/module.lds.S adds to every module
 * ({@code arch/arm64/include/asm/module.lds.h}: {@code .plt}, {@code .init.plt},
 * {@code .text.ftrace_trampoline}, {@code .init.text.ftrace_trampoline}, one byte each), before it
 * lays the module out: {@code module_frob_arch_sections()} ({@code arch/arm64/kernel/module-plts.c})
 * makes each an executable NOBITS section, a PLT one of a 12-byte {@code struct plt_entry} per
 * branch that may need a veneer plus one, at the cache line (64 bytes), a trampoline one of
 * {@code NR_FTRACE_PLTS} entries (6.1's {@code asm/ftrace.h}: 2; 6.12's: 1). Where the link put
 * {@code .plt} before {@code .text} (ld.lld does; ld.bfd puts it after), the module's text moves by
 * that much. The CPU is taken to lack Cortex-A53 erratum 843419, whose workaround adds veneers.
 */
final class Arm64ModulePlts {

    /** A section's size and alignment once the loader has made it executable. */
    record Frobbed(long size, long align) {}

    static final int R_AARCH64_JUMP26 = 282;
    static final int R_AARCH64_CALL26 = 283;
    private static final long PLT_ENTRY = 12;
    private static final long CACHE_LINE = 64;

    private Arm64ModulePlts() {}

    /** The four sections by index, as the loader leaves them; empty for another machine or a module without them. */
    static Map<Integer, Frobbed> of(ElfImage module, FtraceRules rules) {
        ElfFile file = module.file();
        if (!ElfMachine.EM_AARCH64.is(module.target())
                || file.section(".plt").isEmpty()
                || file.section(".init.plt").isEmpty()) {
            return Map.of();
        }
        long corePlts = 0;
        long initPlts = 0;
        for (Section rs : file.sections()) {
            if (rs.type() != Section.SHT_RELA
                    || rs.info() <= 0
                    || rs.info() >= file.sections().size()) {
                continue;
            }
            Section target = file.section(rs.info());
            if ((target.flags() & Section.SHF_EXECINSTR) == 0) {
                continue;
            }
            long plts = branchPlts(module.relocations(rs), i -> file.symbol(i).sectionIndex(), target.index());
            if (rules.initLayoutSection(target.name())) {
                initPlts += plts;
            } else {
                corePlts += plts;
            }
        }
        long trampolines = rules.release().atLeast(6, 12) ? 1 : 2;
        Map<Integer, Frobbed> frobbed = new HashMap<>();
        frobbed.put(file.section(".plt").get().index(), new Frobbed((corePlts + 1) * PLT_ENTRY, CACHE_LINE));
        frobbed.put(file.section(".init.plt").get().index(), new Frobbed((initPlts + 1) * PLT_ENTRY, CACHE_LINE));
        for (String name : List.of(".text.ftrace_trampoline", ".init.text.ftrace_trampoline")) {
            file.section(name).ifPresent(s -> frobbed.put(s.index(), new Frobbed(trampolines * PLT_ENTRY, 4)));
        }
        return Map.copyOf(frobbed);
    }

    /**
     * count_plts() after partition_branch_plt_relas() and the sort, as the kernel runs them: a
     * branch (JUMP26, CALL26) to a symbol outside the section it is in needs a veneer, one per
     * type, symbol and addend where a branch with a zero addend equals the one before it in the
     * sorted order. The partition stops one short when every relocation of the section is such a
     * branch, so that the last one stays unsorted and counts again (md5's .text, with clang).
     */
    static long branchPlts(List<Relocation> relocations, IntUnaryOperator sectionOfSymbol, int target) {
        List<Relocation> rels = new ArrayList<>(relocations);
        int i = 0;
        int j = rels.size() - 1;
        while (i < j) {
            if (needsPlt(sectionOfSymbol, rels.get(i), target)) {
                i++;
            } else if (needsPlt(sectionOfSymbol, rels.get(j), target)) {
                Collections.swap(rels, i, j);
            } else {
                j--;
            }
        }
        rels.subList(0, i).sort(ORDER);
        long plts = 0;
        for (int k = 0; k < rels.size(); k++) {
            Relocation r = rels.get(k);
            if (!needsPlt(sectionOfSymbol, r, target)) {
                continue;
            }
            if (r.addend() != 0 || k == 0 || ORDER.compare(r, rels.get(k - 1)) != 0) {
                plts++;
            }
        }
        return plts;
    }

    /** cmp_rela(): by type, symbol index, addend. */
    private static final Comparator<Relocation> ORDER = Comparator.comparingInt(Relocation::type)
            .thenComparingInt(Relocation::symbolIndex)
            .thenComparingLong(Relocation::addend);

    private static boolean needsPlt(IntUnaryOperator sectionOfSymbol, Relocation r, int target) {
        return (r.type() == R_AARCH64_JUMP26 || r.type() == R_AARCH64_CALL26)
                && sectionOfSymbol.applyAsInt(r.symbolIndex()) != target;
    }
}
