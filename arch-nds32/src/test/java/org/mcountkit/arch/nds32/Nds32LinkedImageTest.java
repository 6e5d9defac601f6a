package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code list} on linked nds32 images, where per-object offsets are stale and the final code is
 * the truth. The relaxed image mirrors what bfd's nds32_elf_relax_longcall1/4 leave of each
 * sethi/ori/jral ("Relax to: jal symbol; 25_PCREL", bytes deleted); the unrelaxed one keeps the
 * 12-byte calls with the address in sethi/ori, as the kernel's gen_sethi_insn/gen_ori_insn
 * write it (ld-nds32/imm.d prints such a pair: "sethi $r0, 0x11223 / ori $r0, $r0, 836").
 */
class Nds32LinkedImageTest {

    private static final long TEXT = 0x8000;
    private static final long MYSEC = 0x9000;
    private static final long MCOUNT = TEXT;

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    /** The sites of an image, and the addresses list must report for it. */
    private record Image(Path path, List<String> sites) {}

    @ParameterizedTest
    @EnumSource(Endian.class)
    void listDecodesExactlyTheJalsToTheHookInARelaxedImage(Endian endian) {
        Image image = relaxed(endian, false);

        FileReport report = lister.list(image.path());

        assertTrue(report.linked());
        assertEquals(
                image.sites(),
                report.sites().stream().map(Nds32LinkedImageTest::describe).toList());
        assertEquals(
                List.of(".mysec 0x9000 4 u_func _mcount decoded"),
                report.untracedSites().stream()
                        .map(Nds32LinkedImageTest::describe)
                        .toList());
        assertTrue(
                Toolchain.X86_64.run("readelf", "-hW", image.path().toString()).contains("EXEC"));
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void relocationsKeptByLdQMarkTheSameJalsAndRejectTheTailJump(Endian endian) {
        Image image = relaxed(endian, true);

        FileReport report = lister.list(image.path());

        assertEquals(
                image.sites().stream()
                        .map(s -> s.replace("decoded", "relocation"))
                        .toList(),
                report.sites().stream().map(Nds32LinkedImageTest::describe).toList());
        assertEquals(
                List.of("reference to _mcount not recorded: not a call: R_NDS32_25_PCREL_RELA on j, a jump to"
                        + " the hook (a tail call)"),
                report.diagnostics().stream()
                        .map(Diagnostic::message)
                        .filter(m -> m.startsWith("reference"))
                        .toList());
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void listDecodesThe12ByteCallsOfAnUnrelaxedImage(Endian endian) {
        Nds32Code text = new Nds32Code();
        text.word(Nds32Code.RET_LP);
        long gFunc = TEXT + text.offset();
        text.word(Nds32Code.ADDI_SP_M8);
        int first = text.longCallTo(MCOUNT);
        text.word(Nds32Code.RET_LP);
        long sFunc = TEXT + text.offset();
        text.body();
        int second = text.longCallTo(MCOUNT);
        text.word(Nds32Code.RET_LP);
        long other = TEXT + text.offset();
        text.longCallTo(gFunc);
        text.word(Nds32Code.RET_LP);
        long end = TEXT + text.offset();
        Path path = dir.resolve("norelax");
        Nds32ElfBuilder.image(endian)
                .code(".text", TEXT, text.bytes())
                .function("_mcount", ".text", MCOUNT, 4, Symbol.STB_GLOBAL)
                .function("g_func", ".text", gFunc, sFunc - gFunc, Symbol.STB_GLOBAL)
                .function("s_func", ".text", sFunc, other - sFunc, Symbol.STB_LOCAL)
                .function("other", ".text", other, end - other, Symbol.STB_GLOBAL)
                .write(path);

        FileReport report = lister.list(path);

        assertEquals(
                List.of(
                        String.format(".text 0x%x 12 g_func+0x4 _mcount decoded", TEXT + first),
                        String.format(".text 0x%x 12 s_func+0x6 _mcount decoded", TEXT + second)),
                report.sites().stream().map(Nds32LinkedImageTest::describe).toList());
    }

    /**
     * A relaxed image: {@code _mcount} at 0x8000; g_func and s_func (s_func's call after a 16-bit
     * instruction, so at a halfword boundary) call it with {@code jal}; other calls g_func and
     * tail-jumps to {@code _mcount} with {@code j}; u_func in the untraced .mysec calls it too.
     * With {@code keepRelocations}, the R_NDS32_25_PCREL_RELA of each jal/j stays, as {@code ld -q}
     * keeps them.
     */
    private Image relaxed(Endian endian, boolean keepRelocations) {
        Nds32Code text = new Nds32Code();
        text.word(Nds32Code.RET_LP);
        long gFunc = TEXT + text.offset();
        text.word(Nds32Code.ADDI_SP_M8);
        int first = text.jalTo(TEXT + text.offset(), MCOUNT);
        text.word(Nds32Code.RET_LP);
        long sFunc = TEXT + text.offset();
        text.body();
        int second = text.jalTo(TEXT + text.offset(), MCOUNT);
        text.word(Nds32Code.RET_LP).half(Nds32Code.MOVI55_R0);
        long other = TEXT + text.offset();
        int call = text.jalTo(TEXT + text.offset(), gFunc);
        int tail = text.offset();
        text.word(Nds32Code.J | (int) (((MCOUNT - (TEXT + tail)) >> 1) & 0xffffff));
        long end = TEXT + text.offset();
        Nds32Code mysec = new Nds32Code();
        int untraced = mysec.jalTo(MYSEC, MCOUNT);
        mysec.word(Nds32Code.RET_LP);

        Nds32ElfBuilder b = Nds32ElfBuilder.image(endian)
                .code(".text", TEXT, text.bytes())
                .code(".mysec", MYSEC, mysec.bytes())
                .function("_mcount", ".text", MCOUNT, 4, Symbol.STB_GLOBAL)
                .function("g_func", ".text", gFunc, sFunc - gFunc, Symbol.STB_GLOBAL)
                .function("s_func", ".text", sFunc, other - sFunc, Symbol.STB_LOCAL)
                .function("other", ".text", other, end - other, Symbol.STB_GLOBAL)
                .function("u_func", ".mysec", MYSEC, mysec.offset(), Symbol.STB_GLOBAL);
        if (keepRelocations) {
            for (int site : List.of(first, second, tail)) {
                b.rela(".text", site, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), "_mcount", 0);
            }
            b.rela(".text", call, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), "g_func", 0);
            b.rela(".mysec", untraced, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), "_mcount", 0);
        }
        Path path = dir.resolve(keepRelocations ? "relaxed-q" : "relaxed");
        b.write(path);
        List<String> sites = new ArrayList<>();
        sites.add(String.format(".text 0x%x 4 g_func+0x4 _mcount decoded", TEXT + first));
        sites.add(String.format(".text 0x%x 4 s_func+0x6 _mcount decoded", TEXT + second));
        return new Image(path, sites);
    }

    private static String describe(CallSite s) {
        return s.section() + " 0x" + Long.toHexString(s.address()) + " " + s.length() + " " + s.function() + " "
                + s.hook() + " " + s.source().label();
    }
}
