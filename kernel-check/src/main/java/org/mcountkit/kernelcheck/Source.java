package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * The kernel source: unpacked once into the work folder with the Kconfig edits and the source
 * fixes, then only read; --per-link's patched copy beside it.
 */
final class Source {

    /**
     * Changes whenever {@link #kconfigEdits} or {@link #sourceFixes} does, so a cached tree with
     * older edits is unpacked again.
     */
    private static final String EDITS = "kconfig-edits 1, source-fixes 1";

    /** 6.12.117's fs.h line that puts FMODE_NONOTIFY on sparc's __O_TMPFILE bit (see {@link #sourceFixes}). */
    static final String NONOTIFY_ON_BIT_25 = "#define FMODE_NONOTIFY\t\t((__force fmode_t)(1 << 25))";

    static final String NONOTIFY_PERM_ON_BIT_26 = "#define FMODE_NONOTIFY_PERM\t((__force fmode_t)(1 << 26))";

    private Source() {}

    /** Every edit an edited tree gets: the source fixes, then the Kconfig edits. */
    private static void edit(Path dir, Release release) {
        sourceFixes(dir);
        kconfigEdits(dir, release);
    }

    /**
     * The edits make recordmcount write the tables: kernel/trace/Kconfig would otherwise pick gcc's
     * -mrecord-mcount (x86) or objtool (x86_64) first, and arm64 would use
     * -fpatchable-function-entry=2 instead of -pg. Each edit adds "depends on n" to one option.
     * (6.12's arm64 names the patchable-entry options WITH_ARGS; clang has its own option.)
     */
    static void kconfigEdits(Path dir, Release release) {
        String with = release.arm64FtraceWith();
        addDependsN(dir.resolve("kernel/trace/Kconfig"), "FTRACE_MCOUNT_USE_CC");
        addDependsN(dir.resolve("kernel/trace/Kconfig"), "FTRACE_MCOUNT_USE_OBJTOOL");
        addDependsN(dir.resolve("arch/arm64/Kconfig"), "GCC_SUPPORTS_DYNAMIC_FTRACE_WITH_" + with);
        addDependsN(dir.resolve("arch/arm64/Kconfig"), "CLANG_SUPPORTS_DYNAMIC_FTRACE_WITH_" + with);
    }

    /**
     * Fixes of the kernel's own defects that stop a row from building with either tool. 6.12.105
     * took mainline's a94204f4d48e ("fsnotify: opt-in for permission events at file open time"),
     * which moved FMODE_NONOTIFY from bit 26 to 25, without ebe559609d78 ("fs: get rid of
     * __FMODE_NONOTIFY kludge"), which in mainline made that move safe: on sparc bit 25 is
     * __O_TMPFILE, so fs/fcntl.c's BUILD_BUG_ON stops every sparc64 6.12 build (and open() would
     * strip O_TMPFILE). The fix swaps the two flags back, FMODE_NONOTIFY on bit 26 where it was
     * through 6.12.104 (only the names are used elsewhere). A tree without those lines (a 6.12.y
     * that fixed it otherwise) is left as it is.
     */
    static void sourceFixes(Path dir) {
        editLines(dir.resolve("include/linux/fs.h"), lines -> {
            int nonotify = lines.indexOf(NONOTIFY_ON_BIT_25);
            int perm = lines.indexOf(NONOTIFY_PERM_ON_BIT_26);
            if (nonotify >= 0 && perm >= 0) {
                lines.set(nonotify, NONOTIFY_ON_BIT_25.replace("<< 25", "<< 26"));
                lines.set(perm, NONOTIFY_PERM_ON_BIT_26.replace("<< 26", "<< 25"));
            }
        });
    }

    static void addDependsN(Path file, String option) {
        editLines(file, lines -> {
            int at = lines.indexOf("config " + option);
            if (at < 0) {
                throw new KernelCheckException(file + ": no 'config " + option + "' to edit");
            }
            lines.add(at + 1, "\tdepends on n");
        });
    }

    /** Reads the file's lines, lets {@code change} edit them in place, and writes them back. */
    private static void editLines(Path file, Consumer<List<String>> change) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(file));
            change.accept(lines);
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The tree for this run, unpacked (and edited and fixed unless --kernel-tables) when its stamp
     * is not this tarball's.
     */
    static void prepare(Setup setup) {
        String edits = setup.options().kernelTables()
                ? "unedited"
                : EDITS + " " + setup.options().release().version();
        String key = tarballStamp(setup.tarball()) + " " + edits;
        unpack(setup, setup.src(), key, tmp -> {
            if (!setup.options().kernelTables()) {
                edit(tmp, setup.options().release());
            }
        });
    }

    /**
     * The --per-link tree: its own (the C tool's build reads the unpatched one), with the
     * machine's patch for the release (Machine.perLinkPatch) and the Kconfig edits. The patch must
     * apply to the clean tree: checked with --dry-run before it is applied.
     */
    static void perLink(Setup setup) {
        Release release = setup.options().release();
        Path patch = setup.mcountkit().root().resolve(setup.machine().perLinkPatch(release));
        if (!Files.isRegularFile(patch)) {
            throw new KernelCheckException(patch + ": no " + setup.machine().perLinkRecipe() + " recipe for Linux "
                    + release.version() + " (" + setup.arch() + " builds --per-link with it)");
        }
        Path dir = perLinkDir(setup);
        String key = tarballStamp(setup.tarball()) + " " + EDITS + " " + release.version() + " " + crc(patch);
        unpack(setup, dir, key, tmp -> {
            List<String> dry = List.of("patch", "-p1", "--dry-run", "-s", "-i", patch.toString());
            List<String> apply = List.of("patch", "-p1", "-s", "-i", patch.toString());
            if (Processes.run(dry, tmp, Map.of(), null, null) != 0
                    || Processes.run(apply, tmp, Map.of(), null, null) != 0) {
                throw new KernelCheckException(patch + " does not apply to a clean " + setup.tarball());
            }
            edit(tmp, release);
        });
    }

    /** Where {@link #perLink} unpacks the --per-link tree. */
    static Path perLinkDir(Setup setup) {
        return setup.work()
                .resolve(setup.options().release().sourceFolder() + "-"
                        + setup.machine().perLinkRecipe());
    }

    private interface Edit {
        void apply(Path tree);
    }

    private static void unpack(Setup setup, Path dir, String key, Edit edit) {
        Path stamp = dir.resolve(".kernel-check-stamp");
        if (Processes.text(stamp).strip().equals(key)) {
            return;
        }
        Setup.say("unpacking " + setup.tarball() + " into " + dir);
        Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
        remove(dir);
        remove(tmp);
        try {
            Files.createDirectories(tmp);
            List<String> tar =
                    List.of("tar", "-xJf", setup.tarball().toString(), "-C", tmp.toString(), "--strip-components=1");
            if (Processes.run(tar, null, Map.of(), null, null) != 0) {
                throw new KernelCheckException("unpacking " + setup.tarball() + " failed");
            }
            edit.apply(tmp);
            Files.writeString(tmp.resolve(".kernel-check-stamp"), key + "\n");
            Files.move(tmp, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void remove(Path dir) {
        if (Processes.run(List.of("rm", "-rf", dir.toString()), null, Map.of(), null, null) != 0) {
            throw new KernelCheckException("rm -rf " + dir + " failed");
        }
    }

    private static String tarballStamp(Path tarball) {
        try {
            return Files.size(tarball) + " "
                    + Files.getLastModifiedTime(tarball).toMillis() / 1000;
        } catch (IOException e) {
            throw new KernelCheckException(tarball + ": " + e.getMessage());
        }
    }

    private static long crc(Path file) {
        CRC32 crc = new CRC32();
        crc.update(ObjectTables.read(file));
        return crc.getValue();
    }
}
