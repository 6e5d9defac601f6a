package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * Recorded objects through {@code ld -r} and a final static link (no libc: a tiny {@code _start}
 * and assembly hooks). Every {@code __mcount_loc} word of the image is the address of a hook
 * call objdump shows there, every such call has its word, and the words equal those of the
 * same sources built with gcc's {@code -mrecord-mcount}. The objects mix the hook names, the
 * non-PIC {@code e8} call, the GOT call of PIC code (which ld relaxes to {@code addr32 call},
 * still 6 bytes), a weak-only {@code -ffunction-sections} file, and a weak function a strong
 * one replaces (its body stays in the image, and so do its call and word).
 */
class LinkedTableTest {

    private static final Set<String> HOOKS = Set.of("__fentry__", "mcount");

    private static final String START = """
                .text
                .globl _start, __fentry__, mcount, ext
            _start:
                call g2
            1:  hlt
                jmp 1b
            __fentry__:
                ret
            mcount:
                ret
            ext:
                ret
                .section .note.GNU-stack,"",@progbits
            """;

    private static final String MAIN = """
            extern int ext(int);
            extern int weak_a(int), weak_b(int), pic_a(int), old_a(int);
            static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_other(x) * 2; }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            int weak_b(int x) { return ext(x * 11); }
            void *hook_address(void) { extern void __fentry__(void); return (void *)__fentry__; }
            int g2(int x) { return g_func(x) + weak_a(x) + weak_b(x) + pic_a(x) + old_a(x) + init_func(x); }
            """;

    private static final String WEAK_ONLY = """
            extern int ext(int);
            int __attribute__((weak)) weak_a(int x) { return ext(x + 1); }
            int __attribute__((weak)) weak_b(int x) { return ext(x + 2); }
            """;

    private static final String PIC = """
            extern int ext(int);
            static __attribute__((noinline)) int pic_s(int x) { return ext(x + 2); }
            int pic_a(int x) { return pic_s(x) + 3; }
            """;

    private static final String OLD_STYLE = """
            extern int ext(int);
            int old_a(int x) { return ext(x - 3) * 5; }
            """;

    @TempDir
    Path dir;

    /** One translation unit of the link and its flags. */
    private record Unit(String name, String source, List<String> flags) {}

    private static List<Unit> units(Toolchain toolchain) {
        boolean i386 = toolchain == Toolchain.I386;
        return List.of(
                new Unit("main", MAIN, List.of("-pg", "-mfentry")),
                new Unit("weak", WEAK_ONLY, List.of("-pg", "-mfentry", "-ffunction-sections")),
                // gcc has no -mfentry for i386 PIC: that file calls mcount through the GOT.
                new Unit("pic", PIC, i386 ? List.of("-pg", "-fpic") : List.of("-pg", "-mfentry", "-fPIE")),
                new Unit("old", OLD_STYLE, List.of("-pg")));
    }

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void linkedTableHoldsTheAddressOfEveryHookCall(Toolchain toolchain) {
        Mcountkit recorder = Mcountkit.withBackends(List.of(new X86Backend()));
        List<Path> recorded = new ArrayList<>();
        List<Path> compilers = new ArrayList<>();
        for (Unit unit : units(toolchain)) {
            Path source = Samples.write(dir, unit.name() + ".c", unit.source());
            List<String> withTable = new ArrayList<>(unit.flags());
            withTable.add("-mrecord-mcount");
            compilers.add(
                    toolchain.compile(source, dir.resolve(unit.name() + "-gcc.o"), withTable.toArray(String[]::new)));
            Path object = toolchain.compile(
                    source, dir.resolve(unit.name() + ".o"), unit.flags().toArray(String[]::new));
            FileReport report = recorder.record(object, RecordOptions.DEFAULT);
            assertTrue(report.changed() && !report.hasErrors(), unit + ": " + report.diagnostics());
            recorded.add(object);
        }

        Path combined = relocatableLink(toolchain, recorded, "recorded-r.o");
        X86Disassembly combinedCode = X86Disassembly.of(toolchain, combined);
        List<String> entries = new ArrayList<>();
        for (TableOracle.Entry entry : TableOracle.entries(combined, "__mcount_loc")) {
            X86Disassembly.Instruction call = combinedCode.at(entry.section(), entry.offset());
            assertNotNull(call, "ld -r: no instruction at " + entry);
            assertTrue(call.callsHook(HOOKS), "ld -r: not a hook call at " + entry + ": " + call);
            entries.add(call.place());
        }
        assertEquals(
                sorted(combinedCode.hookCalls(HOOKS).stream()
                        .map(X86Disassembly.Instruction::place)
                        .toList()),
                sorted(entries),
                "after ld -r: one entry per hook call");

        Path image = finalLink(toolchain, combined, "recorded");
        X86Disassembly imageCode = X86Disassembly.of(toolchain, image);
        List<Long> calls = sorted(imageCode.hookCalls(HOOKS).stream()
                .map(X86Disassembly.Instruction::offset)
                .toList());
        List<Long> words = sorted(TableOracle.addresses(image, "__mcount_loc"));
        assertEquals(calls, words, "the linked table: every hook call's address, none missing, none extra");
        // main.c: 6 instrumented functions, the weak-only file 2, the PIC file 2, the mcount file 1.
        assertEquals(11, words.size(), "functions with a call: " + hex(words));
        for (long word : words) {
            X86Disassembly.Instruction call = imageCode.hookCalls(HOOKS).stream()
                    .filter(i -> i.offset() == word)
                    .findFirst()
                    .orElseThrow();
            int expected = call.text().startsWith("addr") ? 6 : 5;
            assertEquals(expected, call.length(), call.toString());
        }
        assertFalse(
                imageCode.instructions().stream().anyMatch(i -> i.text().matches("call\\s+\\*.*")),
                "ld relaxed every GOT call");

        Path gccImage = finalLink(toolchain, relocatableLink(toolchain, compilers, "gcc-r.o"), "gcc");
        assertEquals(
                hex(words),
                hex(sorted(TableOracle.addresses(gccImage, "__mcount_loc"))),
                "the same words as gcc's own tables");
    }

    private Path relocatableLink(Toolchain toolchain, List<Path> objects, String name) {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("-r", "-o", out.toString()));
        objects.forEach(o -> args.add(o.toString()));
        toolchain.run("ld", args.toArray(String[]::new));
        return out;
    }

    private Path finalLink(Toolchain toolchain, Path combined, String name) {
        Path start = dir.resolve("start.o");
        toolchain.run("as", Samples.write(dir, "start.s", START).toString(), "-o", start.toString());
        Path image = dir.resolve(name);
        toolchain.run("ld", "-e", "_start", start.toString(), combined.toString(), "-o", image.toString());
        return image;
    }

    private static <T extends Comparable<T>> List<T> sorted(List<T> list) {
        return list.stream().sorted().toList();
    }

    private static List<String> hex(List<Long> words) {
        return words.stream().map(w -> "0x" + Long.toHexString(w)).toList();
    }
}
