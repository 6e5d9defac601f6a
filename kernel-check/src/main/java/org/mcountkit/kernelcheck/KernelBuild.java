package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Configures and builds one kernel out of tree (make O=), with the C tool's or mcountkit's
 * scripts/recordmcount, and times the build.
 */
final class KernelBuild {

    static final List<String> FTRACE_OPTIONS =
            List.of("PRINTK", "TTY", "FTRACE", "FUNCTION_TRACER", "DYNAMIC_FTRACE", "FTRACE_STARTUP_TEST");

    /** Every boot has an initramfs whose /init prints ftrace's lists (and --prune's, --modules' more). */
    static final List<String> INITRAMFS_OPTIONS = List.of("BLK_DEV_INITRD", "BINFMT_ELF", "BINFMT_SCRIPT", "PROC_FS");

    /** --modules: the built-in options the initramfs needs to load modules and mount images from loop devices. */
    static final List<String> MODULES_BUILT_IN = List.of(
            "MODULES",
            "MODULE_UNLOAD",
            "BLK_DEV_INITRD",
            "BINFMT_ELF",
            "BINFMT_SCRIPT",
            "PROC_FS",
            "SYSFS",
            "DEVTMPFS",
            "BLOCK",
            "BLK_DEV",
            "BLK_DEV_LOOP",
            "RUNTIME_TESTING_MENU");

    /**
     * --modules: the modules (options set to m; each must come out m). Not TEST_KSTRTOX or
     * TEST_STRING_HELPERS: their init returns -EINVAL once the tests ran, so they never stay loaded.
     * lib/ is compiled without the ftrace flags: the lib modules have no table and are here to be
     * loaded and removed; the file system and crypto modules are the traced ones.
     */
    static final List<String> MODULE_OPTIONS = List.of(
            "ISO9660_FS",
            "FAT_FS",
            "MSDOS_FS",
            "VFAT_FS",
            "EXT4_FS",
            "JBD2",
            "FS_MBCACHE",
            "CONFIGFS_FS",
            "NLS",
            "NLS_CODEPAGE_437",
            "NLS_ISO8859_1",
            "NLS_UTF8",
            "CRYPTO_MD5",
            "CRYPTO_SHA1",
            "CRYPTO_SHA256",
            "CRYPTO_CRC32C",
            "CRC16",
            "CRC_CCITT",
            "CRC_ITU_T",
            "CRC7",
            "CRC8",
            "LIBCRC32C",
            "TEST_HEXDUMP",
            "TEST_BITMAP",
            "TEST_UUID",
            "TEST_MIN_HEAP",
            "TEST_BITOPS",
            "TEST_STATIC_KEYS",
            "TEST_SIPHASH");

    private final Setup setup;

    KernelBuild(Setup setup) {
        this.setup = setup;
    }

    /** The options set y on top of tinyconfig (or --config's target) besides the ftrace ones. */
    List<String> enable() {
        List<String> enable =
                new ArrayList<>(setup.machine().enable(setup.options().release()));
        if (!setup.options().fullSize()) {
            enable.addAll(INITRAMFS_OPTIONS);
        }
        // Only --prune and --config take them (Options.parse).
        enable.addAll(setup.options().enable());
        if (setup.options().loadsModules()) {
            enable.addAll(MODULES_BUILT_IN);
        }
        if (setup.options().fullSize()) {
            enable.addAll(FullSizeModules.BUILT_IN);
        } else if (debugInfo()) {
            enable.addAll(ExplainCheck.DEBUG_OPTIONS);
        }
        return enable;
    }

    /** Whether the kernels build with DWARF: the rows explain.table has, for its check without objects. */
    boolean debugInfo() {
        return !setup.options().fullSize() && ExplainCheck.hasRow(setup);
    }

    /** The options kept off. */
    List<String> disable() {
        List<String> disable =
                new ArrayList<>(setup.machine().disable(setup.options().release()));
        if (debugInfo()) {
            disable.addAll(ExplainCheck.NO_DEBUG_OPTIONS);
        }
        return disable;
    }

    List<String> moduleOptions() {
        if (setup.options().fullSize()) {
            return FullSizeModules.options();
        }
        return setup.options().modules() ? moduleOptions(setup.options().release()) : List.of();
    }

    /**
     * --modules' options for this release: without TEST_SIPHASH where test_siphash is a KUnit
     * suite (which needs KUnit) rather than a module of its own.
     */
    static List<String> moduleOptions(Release release) {
        return release.testSiphashModule()
                ? MODULE_OPTIONS
                : MODULE_OPTIONS.stream().filter(o -> !o.equals("TEST_SIPHASH")).toList();
    }

    /**
     * make with a fixed build identity, so the two builds compile the same bytes. --cc clang:
     * Debian's versioned LLVM tools (clang-19, ld.lld-19, llvm-objcopy-19, ...) through Kbuild's
     * LLVM=-19 suffix.
     */
    List<String> kmake(Path src, Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of(
                "make",
                "-C",
                src.toString(),
                "O=" + dir,
                "ARCH=" + setup.machine().karch(),
                "CROSS_COMPILE=" + setup.cross(),
                "KBUILD_BUILD_TIMESTAMP=2023-01-01",
                "KBUILD_BUILD_USER=kernel-check",
                "KBUILD_BUILD_HOST=mcountkit"));
        if (setup.options().cc().equals("clang")) {
            command.add("LLVM=-19");
        }
        if (debugInfo()) {
            // DWARF names the folder each unit was compiled in (DW_AT_comp_dir): the same name in
            // both builds, so that their objects differ only where the tools' tables do.
            String map = "-fdebug-prefix-map=" + dir + "=/kernel-check";
            command.addAll(List.of("KCFLAGS=" + map, "KAFLAGS=" + map));
        }
        command.addAll(Arrays.asList(args));
        return command;
    }

    /** "gcc 12" or "clang-19 19 with LLVM=-19", as the report names the compiler. */
    String compiler() {
        if (setup.options().cc().equals("gcc")) {
            String gcc = setup.cross() + "gcc";
            return gcc + " " + Tools.check(gcc, "-dumpversion").strip();
        }
        return "clang-19 " + Tools.check("clang-19", "-dumpversion").strip() + " with LLVM=-19";
    }

    void configure(Path src, Path dir) {
        Path log = dir.resolve("config.log");
        String target = setup.options().configTarget();
        if (Processes.run(kmake(src, dir, target), null, Map.of(), log, log) != 0) {
            throw new KernelCheckException(Processes.tail(log, 20) + "\n" + dir + ": make " + target + " failed");
        }
        List<String> config = new ArrayList<>(List.of(
                src.resolve("scripts/config").toString(),
                "--file",
                dir.resolve(".config").toString()));
        FTRACE_OPTIONS.forEach(o -> config.addAll(List.of("-e", o)));
        enable().forEach(o -> config.addAll(List.of("-e", o)));
        disable().forEach(o -> config.addAll(List.of("-d", o)));
        moduleOptions().forEach(o -> config.addAll(List.of("-m", o)));
        setup.machine().values().forEach((o, v) -> config.addAll(List.of("--set-val", o, v)));
        if (Processes.run(config, null, Map.of(), null, null) != 0) {
            throw new KernelCheckException(dir + ": scripts/config failed");
        }
        if (Processes.run(kmake(src, dir, "olddefconfig"), null, Map.of(), log, log, true) != 0) {
            throw new KernelCheckException(Processes.tail(log, 20) + "\n" + dir + ": make olddefconfig failed");
        }
        List<String> lines = Processes.text(dir.resolve(".config")).lines().toList();
        List<String> yes = new ArrayList<>(FTRACE_OPTIONS);
        yes.addAll(enable());
        List<String> no = new ArrayList<>(disable());
        if (setup.options().kernelTables()) {
            no.add("FTRACE_MCOUNT_USE_RECORDMCOUNT");
        } else {
            yes.add("FTRACE_MCOUNT_USE_RECORDMCOUNT");
            no.addAll(List.of(
                    "FTRACE_MCOUNT_USE_CC", "FTRACE_MCOUNT_USE_OBJTOOL", "FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY"));
        }
        for (String o : yes) {
            if (!lines.contains("CONFIG_" + o + "=y")) {
                throw new KernelCheckException(dir + "/.config: CONFIG_" + o + " is not y (see " + log + ")");
            }
        }
        for (String o : no) {
            if (lines.contains("CONFIG_" + o + "=y")) {
                throw new KernelCheckException(dir + "/.config: CONFIG_" + o + " is y");
            }
        }
        for (Map.Entry<String, String> o : setup.machine().values().entrySet()) {
            String line = "CONFIG_" + o.getKey() + "=" + o.getValue();
            if (!lines.contains(line)) {
                throw new KernelCheckException(dir + "/.config: no " + line + " (see " + log + ")");
            }
        }
        // --config: the handful but the traced one may stay built in where the configuration selects them.
        for (String o : moduleOptions()) {
            boolean mayBeBuiltIn = setup.options().fullSize() && !o.equals(FullSizeModules.TRACED.option());
            if (!lines.contains("CONFIG_" + o + "=m") && !(mayBeBuiltIn && lines.contains("CONFIG_" + o + "=y"))) {
                throw new KernelCheckException(dir + "/.config: CONFIG_" + o + " is not m"
                        + (mayBeBuiltIn ? " or y" : "") + " (see " + log + ")");
            }
        }
    }

    /**
     * Kbuild runs $(objtree)/scripts/recordmcount once per object. After `make prepare` has built
     * the C tool there, the file is replaced by a wrapper; make does not build it again, since the
     * C sources it depends on are older and its command line is unchanged (checked after the
     * build). The wrappers are /bin/sh scripts that log each call, so the two builds pay the same.
     */
    void writeWrapper(Path dir, Recorder recorder) {
        Path wrapper = dir.resolve("scripts/recordmcount");
        if (!Files.isExecutable(wrapper)) {
            throw new KernelCheckException(wrapper + ": make prepare did not build the C recordmcount");
        }
        if (recorder == Recorder.C_TOOL) {
            try {
                Files.move(wrapper, dir.resolve("scripts/recordmcount.c-tool"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        String entry =
                setup.mcountkit().entry().stream().map(KernelBuild::quote).collect(Collectors.joining(" "));
        script(
                wrapper,
                resource(recorder.template()).replace("@DIR@", dir.toString()).replace("@ENTRY@", entry));
        Processes.write(dir.resolve("recordmcount-calls.log"), "");
        Processes.write(dir.resolve("recordmcount-failures.log"), "");
    }

    /** Configures, prepares and builds the {@code tool} kernel from {@code src} in out/TOOL per object, timed. */
    void build(Build tool, Path src, Map<String, String> env) {
        build(tool, Recorder.perObject(tool), src, env);
    }

    /**
     * Configures, prepares and builds the {@code tool} kernel from {@code src} in out/TOOL with
     * {@code recorder} as scripts/recordmcount (unless --kernel-tables), timed.
     */
    private void build(Build tool, Recorder recorder, Path src, Map<String, String> env) {
        Path dir = setup.dir(tool);
        mkdirs(dir);
        Setup.say(setup.arch() + ": configuring and preparing the " + tool + " build in " + dir);
        configure(src, dir);
        Path prepare = dir.resolve("prepare.log");
        if (Processes.run(kmake(src, dir, "-j" + setup.jobs(), "prepare"), null, env, prepare, prepare) != 0) {
            throw new KernelCheckException(Processes.tail(prepare, 30) + "\n" + dir + ": make prepare failed");
        }
        boolean tables = setup.options().kernelTables();
        String wrapperText = "";
        if (!tables) {
            writeWrapper(dir, recorder);
            wrapperText = Processes.text(dir.resolve("scripts/recordmcount"));
        }
        Setup.say(setup.arch() + ": building with "
                + (tables ? "the kernel's own tables" : "the " + tool + " recordmcount") + " (make -j" + setup.jobs()
                + ")");
        // The load around the build, to tell a busy machine's times from the tools' own.
        String before = load().split(" ")[0];
        Path log = dir.resolve("build.log");
        BuildTime time = BuildTime.of(() -> Processes.run(kmake(src, dir, "-j" + setup.jobs()), null, env, log, log));
        if (time.status() != 0) {
            throw new KernelCheckException(Processes.tail(log, 30) + "\n" + dir + ": the kernel build with the " + tool
                    + " recordmcount failed (see " + log + ")");
        }
        Processes.write(dir.resolve("build.time"), time.line() + "\n");
        String[] after = load().split(" ");
        Processes.write(dir.resolve("build.load"), before + "\n" + after[0] + " " + after[1] + " " + after[2] + "\n");
        if (!tables) {
            if (!Processes.text(dir.resolve("scripts/recordmcount")).equals(wrapperText)) {
                throw new KernelCheckException(dir + ": make rebuilt scripts/recordmcount over the wrapper");
            }
            boolean called =
                    !Processes.text(dir.resolve("recordmcount-calls.log")).isEmpty();
            if (!recorder.perObject()) {
                if (called) {
                    throw new KernelCheckException(dir + ": the per-link build called scripts/recordmcount per object");
                }
            } else if (!called) {
                throw new KernelCheckException(dir + ": the build never called scripts/recordmcount");
            }
        }
        if (!Files.isRegularFile(dir.resolve(setup.machine().image()))
                || !Files.isRegularFile(dir.resolve("vmlinux"))) {
            throw new KernelCheckException(dir + ": no " + setup.machine().image() + " or vmlinux after the build");
        }
    }

    /**
     * The mcountkit build from the patched tree. The patch runs `mcountkit-recordmcount` (and
     * docs/post-link.patch `mcountkit table`) from PATH: here shims that run this checkout's and
     * log each call with its wall time, for the report.
     */
    void perLinkBuild(Path perLinkSrc) {
        Path bin = setup.out().resolve("per-link-bin");
        Path dir = setup.dir(Build.MCOUNTKIT);
        Path log = dir.resolve("per-link-calls.log");
        mkdirs(bin);
        for (String tool : List.of("mcountkit-recordmcount", "mcountkit")) {
            script(
                    bin.resolve(tool),
                    resource("per-link-shim.sh")
                            .replace("@TOOL@", tool)
                            .replace("@ROOT@", setup.mcountkit().root().toString())
                            .replace("@LOG@", log.toString()));
        }
        Processes.write(log, "");
        build(Build.MCOUNTKIT, Recorder.PER_LINK, perLinkSrc, Map.of("PATH", bin + ":" + System.getenv("PATH")));
        String sections =
                Tools.check("readelf", "-W", "-S", dir.resolve("vmlinux.o").toString());
        boolean postLink = setup.machine().postLink();
        if (postLink == sections.contains(" __mcount_loc ")) {
            throw new KernelCheckException(dir.resolve("vmlinux.o")
                    + (postLink
                            ? ": has __mcount_loc, which no step of docs/post-link.patch writes"
                            : ": no __mcount_loc (the per-link record step did not run)"));
        }
        String first = setup.options().release().firstKallsymsLink();
        String step = postLink ? "table .* " + Pattern.quote(first) + " .*exit 0$" : ".*vmlinux\\.o .*exit 0$";
        if (Processes.text(log).lines().noneMatch(l -> l.matches(step))) {
            throw new KernelCheckException(dir
                    + (postLink
                            ? ": mcountkit table never ran on " + first
                            : ": mcountkit record never ran on vmlinux.o"));
        }
    }

    /** The first load average, and the three after a build. */
    private static String load() {
        return Processes.text(Path.of("/proc/loadavg")).strip();
    }

    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    static String resource(String name) {
        try (InputStream in = KernelBuild.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes an executable script. */
    static void script(Path file, String text) {
        try {
            Processes.write(file, text);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
