package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Section;
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code verify} on relocatable objects, as a kernel module is: objects compiled with each
 * machine's kernel flags (MIPS modules' {@code -mlong-calls} included) and recorded by mcountkit,
 * and the {@code ld -r} of two of them (a {@code .ko}), are clean with every table entry checked;
 * an entry moved through its relocation (the RELA addend, or the REL word) and a site whose bytes
 * were overwritten are exactly the bad ones; an entry against the weak function's own symbol (its
 * section holds no other) is placed through that symbol.
 */
class VerifyObjectTest {

    /**
     * A module's functions: static, global, weak alone in its section (so its entry is relocated
     * against the function symbol, not a section symbol), init and exit code. Four sites are
     * traced; {@code .exit.text} is not.
     */
    static final String MODULE = """
            __attribute__((noinline)) static int helper(int x) { return x * 3 + 1; }
            __attribute__((noinline)) int api(int x) { return helper(x) + 1; }
            __attribute__((weak, noinline, section(".text.unlikely"))) int tunable(int x) { return x - 1; }
            __attribute__((noinline, section(".init.text"))) int mod_init(void) { return api(1) + tunable(2); }
            __attribute__((noinline, section(".exit.text"))) void mod_exit(void) { api(3); }
            """;

    static final String OTHER = """
            extern int api(int x);
            __attribute__((noinline)) int second(int x) { return api(x) * 2; }
            __attribute__((noinline)) int third(int x) { return second(x) + 5; }
            """;

    /** A machine's kernel compile: toolchain, flags, the smallest step between instructions, a word that is no site. */
    enum Kernel {
        X86_64(Toolchain.X86_64, List.of("-pg", "-mfentry", "-mcmodel=kernel"), 1, new byte[] {
            (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90
        }),
        AARCH64(Toolchain.AARCH64, List.of("-pg"), 4, new byte[] {(byte) 0xe0, 0x03, 0x00, (byte) 0xaa}),
        ARM(Toolchain.ARM, List.of("-pg", "-marm", "-march=armv7-a", "-mfloat-abi=soft"), 4, new byte[] {
            0x00, 0x00, (byte) 0xa0, (byte) 0xe1
        }),
        ARM_THUMB2(Toolchain.ARM, List.of("-pg", "-mthumb", "-march=armv7-a", "-mfloat-abi=soft"), 2, new byte[] {
            0x00, 0x46, 0x00, 0x46
        }),
        MIPS(Toolchain.MIPS, List.of("-pg", "-mno-abicalls", "-mlong-calls"), 4, new byte[] {0x00, 0x40, 0x08, 0x25}),
        MIPS64(Toolchain.MIPS64, List.of("-pg", "-mno-abicalls", "-mlong-calls", "-msym32"), 4, new byte[] {
            0x00, 0x40, 0x08, 0x25
        });

        final Toolchain toolchain;
        final List<String> flags;
        final int step;
        final byte[] notASite;

        Kernel(Toolchain toolchain, List<String> flags, int step, byte[] notASite) {
            this.toolchain = toolchain;
            this.flags = flags;
            this.step = step;
            this.notASite = notASite;
        }

        Path recorded(Path dir, String name, String source) {
            Path object = toolchain.compile(dir, name, source, flags);
            CliRun record = CliRun.of("record", object.toString());
            assertEquals(0, record.exitCode(), record.err());
            return object;
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void aRecordedObjectAndAModuleLinkedFromSuchAreCleanWithEveryEntryChecked(Kernel k) {
        Path module = k.recorded(dir, "module", MODULE);
        Path other = k.recorded(dir, "other", OTHER);
        Path ko = dir.resolve("both.ko");
        k.toolchain.run("ld", "-r", "-o", ko.toString(), module.toString(), other.toString());
        List<TableOracle.Entry> entries = TableOracle.entries(module, "__mcount_loc");
        assertEquals(4, entries.size(), entries.toString());
        assertTrue(entries.stream().anyMatch(e -> e.section().equals(".init.text")), entries.toString());
        assertEquals(6, TableOracle.entries(ko, "__mcount_loc").size());

        CliRun run = CliRun.of("verify", module.toString(), ko.toString());

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(
                module + ": 4 entries checked, 0 zero, 0 bad\n" + ko + ": 6 entries checked, 0 zero, 0 bad\n",
                run.out());
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void anEntryMovedThroughItsRelocationAndAnOverwrittenSiteAreBad(Kernel k) throws IOException {
        Path module = k.recorded(dir, "module", MODULE);
        List<TableOracle.Entry> entries = TableOracle.entries(module, "__mcount_loc");
        Path bad = dir.resolve("bad.o");
        Files.copy(module, bad);
        moveEntry(bad, 1, k.step);
        TableOracle.Entry overwritten = entries.get(2);
        overwrite(bad, overwritten, k.notASite);
        int word = new JelfElfFile(bad).target().pointerSize();

        CliRun run = CliRun.of("verify", bad.toString());

        assertEquals(1, run.exitCode(), run.out());
        List<String> lines = run.out().lines().toList();
        assertEquals(3, lines.size(), run.out());
        assertTrue(
                lines.get(0)
                        .startsWith(String.format(
                                "%s: __mcount_loc+0x%x 0x%x ",
                                bad, word, entries.get(1).offset() + k.step)),
                lines.get(0));
        assertTrue(lines.get(0).contains(": neither a call to the hook nor a NOP: found "), lines.get(0));
        assertTrue(
                lines.get(1)
                        .startsWith(String.format("%s: __mcount_loc+0x%x 0x%x ", bad, 2 * word, overwritten.offset())),
                lines.get(1));
        assertTrue(lines.get(1).contains("found " + Images.hex(k.notASite)), lines.get(1));
        assertEquals(bad + ": 4 entries checked, 0 zero, 2 bad", lines.get(2));
    }

    /**
     * gcc's own table ({@code -mrecord-mcount}, RELA against {@code .text}) is read the same way,
     * never recorded. gcc lists {@code .exit.text} too, which recordmcount's list of traced
     * sections leaves out: that entry is reported, as in a linked image.
     */
    @Test
    void aCompilersOwnTableIsVerified() {
        Path object = Toolchain.X86_64.compile(dir, "cc", MODULE, List.of("-pg", "-mfentry", "-mrecord-mcount"));

        CliRun run = CliRun.of("verify", object.toString());

        assertEquals(1, run.exitCode(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(2, lines.size(), run.out());
        assertTrue(
                lines.get(0).contains(" mod_exit: in .exit.text, a section that is not traced: found e8 00 00 00 00"),
                lines.get(0));
        assertEquals(object + ": 5 entries checked, 0 zero, 1 bad", lines.get(1));
    }

    /**
     * x86 since Linux 6.2 (CALL_PADDING) compiles with {@code -fpatchable-function-entry=16,16}:
     * 16 bytes of padding before each function, listed in {@code __patchable_function_entries},
     * beside the recordmcount table. The module loader reads {@code __mcount_loc} alone, so verify
     * does too: the pads, {@code .exit.text}'s among them, are no ftrace sites.
     */
    @Test
    void aModulesCallPaddingTableIsNotFtracesWhenItHasMcountLoc() {
        Path object = Toolchain.X86_64.compile(
                dir,
                "padded",
                MODULE,
                List.of("-pg", "-mfentry", "-mcmodel=kernel", "-fpatchable-function-entry=16,16"));
        CliRun record = CliRun.of("record", "-q", object.toString());
        assertEquals(0, record.exitCode(), record.err());
        assertEquals(
                5, TableOracle.addresses(object, "__patchable_function_entries").size(), "a pad per function");

        CliRun run = CliRun.of("verify", object.toString());

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(
                List.of(object + ": 4 entries checked, 0 zero, 0 bad"),
                run.out().lines().toList());
    }

    /**
     * Moves table entry {@code index} by {@code delta} bytes where its place is kept: the RELA
     * relocation's addend, or on REL machines the table word.
     */
    private static void moveEntry(Path object, int index, long delta) throws IOException {
        JelfElfFile elf = new JelfElfFile(object);
        int word = elf.target().pointerSize();
        Section rela = elf.section(".rela__mcount_loc").orElse(null);
        if (rela == null) {
            long stored =
                    readWord(object, elf.section("__mcount_loc").orElseThrow().offset() + (long) index * word, elf);
            Images.putWord(object, "__mcount_loc", (long) index * word, stored + delta);
            return;
        }
        // Elf64_Rela is offset, info, addend (8 bytes each); Elf32_Rela 4 bytes each. Find the one at the entry.
        int size = 3 * word;
        for (long at = 0; at < rela.size(); at += size) {
            if (readWord(object, rela.offset() + at, elf) == (long) index * word) {
                long addend = readWord(object, rela.offset() + at + 2L * word, elf);
                Images.putWord(object, ".rela__mcount_loc", at + 2L * word, addend + delta);
                return;
            }
        }
        throw new AssertionError("no relocation at entry " + index + " of " + object);
    }

    private static long readWord(Path file, long at, JelfElfFile elf) throws IOException {
        int word = elf.target().pointerSize();
        byte[] bytes = new byte[word];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            f.seek(at);
            f.readFully(bytes);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(elf.target().endian().order());
        return word == 8 ? b.getLong() : b.getInt() & 0xffffffffL;
    }

    private static void overwrite(Path object, TableOracle.Entry entry, byte[] bytes) throws IOException {
        Section code = new JelfElfFile(object).section(entry.section()).orElseThrow();
        try (RandomAccessFile f = new RandomAccessFile(object.toFile(), "rw")) {
            f.seek(code.offset() + entry.offset());
            f.write(bytes);
        }
    }
}
