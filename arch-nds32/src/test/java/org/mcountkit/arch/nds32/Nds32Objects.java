package org.mcountkit.arch.nds32;

import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_25_PCREL_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_32_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_EMPTY;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_HI20_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_INSN16;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_LO12S0_ORI_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_LONGCALL4;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_PTR;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_PTR_RESOLVED;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_RELAX_ENTRY;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Symbol;

/**
 * The nds32 objects the tests build, each mirroring published output:
 * <ul>
 * <li>the call: gas/config/tc-nds32.c relax_table, "jal" at BR_RANGE_U4G (the -mcmodel=large
 * form gcc's nds32.md emits as "bal"): {@code sethi $ta} with HI20, {@code ori $ta,$ta} with
 * LO12S0_ORI, {@code jral $ta}; the kernel's asm/ftrace.h: "sethi + ori + jral", 12 bytes;</li>
 * <li>relaxation hints: the same relax_table entry (LONGCALL4 on the sethi, PTR on the ori,
 * PTR_RESOLVED/EMPTY/INSN16 on the jral) and R_NDS32_RELAX_ENTRY against .text at offset 0 as
 * gas/testsuite/gas/nds32/ji-jr.d, br-1.d and br-2.d print it;</li>
 * <li>the 4-byte call: ji-jr.d's {@code jal} with R_NDS32_25_PCREL_RELA.</li>
 * </ul>
 */
public final class Nds32Objects {

    /** Where the traced calls of {@link #pg} sit in .text, and where the untraced one sits in .mysec. */
    public record Layout(List<Integer> textSites, int untracedSite) {}

    /** How {@link #pg} marks the sections for the linker. */
    public enum Relax {
        /** No R_NDS32_RELAX_ENTRY: nds32_elf_relax_section leaves the section alone. */
        NONE,
        /** RELAX_ENTRY plus the per-call hints: the section may shrink. */
        ENABLED,
        /** RELAX_ENTRY whose addend carries R_NDS32_RELAX_ENTRY_DISABLE_RELAX_FLAG (1 << 31). */
        DISABLED
    }

    private Nds32Objects() {}

    /**
     * A {@code -pg -mcmodel=large} object: global {@code g_func} and local {@code s_func} in
     * .text, each calling {@code _mcount} after a prologue that mixes 32- and 16-bit
     * instructions (so the second call sits at a halfword boundary), and {@code u_func} in the
     * untraced section .mysec.
     */
    public static Layout pg(Path out, Endian endian, int hookBinding, Relax relax) {
        Nds32Code text = new Nds32Code();
        int gStart = text.offset();
        text.word(Nds32Code.ADDI_SP_M8);
        int first = text.longCall();
        text.word(Nds32Code.RET_LP);
        int gEnd = text.offset();
        text.body();
        int sStart = gEnd;
        int second = text.longCall();
        text.word(Nds32Code.RET_LP).half(Nds32Code.MOVI55_R0);
        int sEnd = text.offset();

        Nds32Code mysec = new Nds32Code();
        int untraced = mysec.longCall();
        mysec.word(Nds32Code.RET_LP);

        Nds32ElfBuilder b = Nds32ElfBuilder.object(endian)
                .code(".text", text.bytes())
                .code(".mysec", mysec.bytes())
                .function("s_func", ".text", sStart, sEnd - sStart, Symbol.STB_LOCAL)
                .function("g_func", ".text", gStart, gEnd - gStart, Symbol.STB_GLOBAL)
                .function("u_func", ".mysec", 0, mysec.offset(), Symbol.STB_GLOBAL)
                .undefined("_mcount", hookBinding);
        if (relax != Relax.NONE) {
            long flags = relax == Relax.DISABLED ? Nds32Relocations.RELAX_ENTRY_DISABLE_RELAX_FLAG : 0;
            b.rela(".text", 0, R_NDS32_RELAX_ENTRY.number(), ".text", flags);
        }
        for (int site : List.of(first, second)) {
            call(b, ".text", site, relax == Relax.ENABLED);
        }
        call(b, ".mysec", untraced, false);
        b.write(out);
        return new Layout(List.of(first, second), untraced);
    }

    /** The relocations of one call at {@code site}, with or without the relaxation hints. */
    static void call(Nds32ElfBuilder b, String section, int site, boolean hints) {
        b.rela(section, site, R_NDS32_HI20_RELA.number(), "_mcount", 0);
        if (hints) {
            b.rela(section, site, R_NDS32_LONGCALL4.number(), section, site + 8);
        }
        b.rela(section, site + 4, R_NDS32_LO12S0_ORI_RELA.number(), "_mcount", 0);
        if (hints) {
            b.rela(section, site + 4, R_NDS32_PTR.number(), section, site + 8);
            b.rela(section, site + 8, R_NDS32_PTR_RESOLVED.number(), null, 0);
            b.rela(section, site + 8, R_NDS32_EMPTY.number(), "_mcount", 0);
            b.rela(section, site + 8, R_NDS32_INSN16.number(), null, 0);
        }
    }

    /**
     * References to {@code _mcount} that are not the kernel's call, one per place in the returned
     * list: a {@code sethi $r0} (loading the address into another register), a lone
     * {@code sethi $ta} (no ori/jral after it), a tail jump
     * {@code sethi/ori/jr $ta}, a 4-byte {@code jal} (ji-jr.d), a {@code j}, and a {@code .word}
     * in .data; plus one real call at offset 0 so the file has a site.
     */
    static List<String> nonCalls(Path out, Endian endian) {
        Nds32Code text = new Nds32Code();
        int call = text.longCall();
        int sethiR0 = text.offset();
        text.word(Nds32Code.SETHI_R0).word(Nds32Code.NOP);
        int sethiOnly = text.offset();
        text.word(Nds32Code.SETHI_TA).word(Nds32Code.NOP);
        int tail = text.offset();
        text.word(Nds32Code.SETHI_TA).word(Nds32Code.ORI_TA).word(Nds32Code.JR_TA);
        int jal = text.offset();
        text.word(Nds32Code.JAL);
        int j = text.offset();
        text.word(Nds32Code.J);
        Nds32ElfBuilder b = Nds32ElfBuilder.object(endian)
                .code(".text", text.bytes())
                .data(".data", 0, new byte[4])
                .function("f", ".text", 0, text.offset(), Symbol.STB_GLOBAL)
                .undefined("_mcount", Symbol.STB_WEAK);
        call(b, ".text", call, false);
        b.rela(".text", sethiR0, R_NDS32_HI20_RELA.number(), "_mcount", 0);
        b.rela(".text", sethiOnly, R_NDS32_HI20_RELA.number(), "_mcount", 0);
        call(b, ".text", tail, false);
        b.rela(".text", jal, R_NDS32_25_PCREL_RELA.number(), "_mcount", 0);
        b.rela(".text", j, R_NDS32_25_PCREL_RELA.number(), "_mcount", 0);
        b.rela(".data", 0, R_NDS32_32_RELA.number(), "_mcount", 0);
        b.write(out);
        return List.of(
                ".text+0x" + Integer.toHexString(sethiR0),
                ".text+0x" + Integer.toHexString(sethiOnly),
                ".text+0x" + Integer.toHexString(tail),
                ".text+0x" + Integer.toHexString(jal),
                ".text+0x" + Integer.toHexString(j),
                ".data+0x0");
    }
}
