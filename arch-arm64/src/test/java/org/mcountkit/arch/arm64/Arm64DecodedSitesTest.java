package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * A kernel-like image that defines its own {@code _mcount} and kept no relocations: list reads
 * the sites from the linked code, and they are the {@code bl _mcount} objdump shows; linked with
 * {@code -q}, the kept relocations give the same places.
 */
class Arm64DecodedSitesTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    @Test
    void listOnAnImageWithoutRelocationsDecodesEveryBlToTheHook() {
        Path image = link(false);
        List<ObjdumpCode.Instruction> calls = callsToMcount(image);

        FileReport report = lister.list(image);

        assertEquals(5, calls.size(), calls.toString());
        assertEquals(
                calls.stream().map(ObjdumpCode.Instruction::offset).toList(),
                report.sites().stream().map(CallSite::address).toList());
        assertEquals(
                calls.stream()
                        .map(i -> i.label() + "+0x" + Long.toHexString(i.offset() - i.labelStart()))
                        .toList(),
                report.sites().stream().map(CallSite::function).toList());
        report.sites().forEach(s -> assertEquals(SiteSource.DECODED, s.source(), s.toString()));
        report.sites().forEach(s -> assertEquals(4, s.length(), s.toString()));
    }

    @Test
    void relocationsKeptByLdQGiveTheSamePlaces() {
        Path image = link(true);

        FileReport report = lister.list(image);

        assertFalse(report.sites().isEmpty());
        report.sites().forEach(s -> assertEquals(SiteSource.RELOCATION, s.source(), s.toString()));
        assertEquals(
                callsToMcount(image).stream()
                        .map(ObjdumpCode.Instruction::offset)
                        .toList(),
                report.sites().stream().map(CallSite::address).toList());
    }

    private Path link(boolean keepRelocations) {
        Path c = Samples.write(dir, "k.c", """
                int f0(int x) { return x + 1; }
                int f1(int x) { return f0(x) * 2; }
                int f2(int x) { return f1(x) - 3; }
                int f3(int x) { return f2(x) ^ 4; }
                void _start(void) { f3(1); for (;;) { } }
                """);
        Path s = Samples.write(dir, "hook.s", """
                .text
                .globl _mcount
                .type _mcount, %function
                _mcount:
                ret
                .size _mcount, . - _mcount
                """);
        Path object = Toolchain.AARCH64.compile(
                c,
                dir.resolve("k.o"),
                "-O1",
                "-pg",
                "-fno-inline",
                "-ffreestanding",
                "-fno-PIE",
                "-fno-asynchronous-unwind-tables");
        Path hook = dir.resolve("hook.o");
        Command.check(dir, Toolchain.AARCH64.tool("as"), s.toString(), "-o", hook.toString());
        Path image = dir.resolve(keepRelocations ? "image-q" : "image");
        if (keepRelocations) {
            Command.check(
                    dir,
                    Toolchain.AARCH64.tool("ld"),
                    "-q",
                    object.toString(),
                    hook.toString(),
                    "-o",
                    image.toString());
        } else {
            Command.check(
                    dir, Toolchain.AARCH64.tool("ld"), object.toString(), hook.toString(), "-o", image.toString());
        }
        return image;
    }

    private static List<ObjdumpCode.Instruction> callsToMcount(Path image) {
        return Disassembly.of(image).instructions().stream()
                .filter(i -> i.mnemonic().equals("bl") && i.operands().endsWith("<_mcount>"))
                .toList();
    }
}
