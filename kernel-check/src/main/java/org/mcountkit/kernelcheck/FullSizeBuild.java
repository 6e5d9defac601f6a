package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * --config's one build (out/mcountkit), whose scripts/recordmcount runs both tools on each object
 * (fullsize-wrapper.sh): the C tool on a copy under out/c, mcountkit on the object the build goes
 * on with. A full configuration takes hours, so the build resumes: once configured and prepared
 * (the stamp file), a later run only runs make again, which goes on where the last one stopped;
 * the logs append and each make run adds its time to build.times. --fresh starts over.
 */
record FullSizeBuild(Setup setup, KernelBuild build) {

    /** Written once configure, prepare and the C tool's move are done: a run finding it resumes. */
    static final String STAMP = ".kernel-check-prepared";

    private static final String STARTED = "started";

    void run() {
        Path dir = setup.dir(Build.MCOUNTKIT);
        if (setup.options().reuse()) {
            if (!Files.isRegularFile(dir.resolve(setup.machine().image()))) {
                throw new KernelCheckException("--reuse: no finished build in " + dir);
            }
            return;
        }
        if (setup.options().fresh() || !Files.isRegularFile(dir.resolve(STAMP))) {
            prepare(dir);
        } else {
            Setup.say(setup.arch() + ": resuming the build in " + dir + " (--fresh starts over)");
        }
        // Written on every run, so the calls go to this checkout's mcountkit; make does not rebuild
        // scripts/recordmcount over it (its sources are older, its command line unchanged: checked below).
        String wrapper = wrapper(dir);
        Setup.say(setup.arch() + ": building with both recordmcounts on each object (make -j" + setup.jobs() + ")");
        String before = load();
        // A run stopped before its end (the session ended) leaves this line without a time after it.
        append(dir.resolve("build.times"), STARTED + "\n");
        Path log = dir.resolve("build.log");
        BuildTime time = BuildTime.of(() ->
                Processes.run(build.kmake(setup.src(), dir, "-j" + setup.jobs()), null, Map.of(), log, log, true));
        append(dir.resolve("build.times"), time.line() + " " + before + " " + load() + "\n");
        if (time.status() != 0) {
            throw new KernelCheckException(Processes.tail(log, 30) + "\n" + dir + ": the kernel build failed (see "
                    + log + "; a rerun goes on from here)");
        }
        if (!Processes.text(dir.resolve("scripts/recordmcount")).equals(wrapper)) {
            throw new KernelCheckException(dir + ": make rebuilt scripts/recordmcount over the wrapper");
        }
        if (Processes.text(dir.resolve("recordmcount-calls.log")).isEmpty()) {
            throw new KernelCheckException(dir + ": the build never called scripts/recordmcount");
        }
        if (!Files.isRegularFile(dir.resolve(setup.machine().image()))
                || !Files.isRegularFile(dir.resolve("vmlinux"))) {
            throw new KernelCheckException(dir + ": no " + setup.machine().image() + " or vmlinux after the build");
        }
    }

    /** Starts over: configure from --config's target, make prepare, the C tool moved aside, the stamp. */
    private void prepare(Path dir) {
        Source.remove(setup.out());
        KernelBuild.mkdirs(dir);
        KernelBuild.mkdirs(setup.dir(Build.C_TOOL));
        Setup.say(setup.arch() + ": configuring (" + setup.options().configTarget() + ") and preparing in " + dir);
        build.configure(setup.src(), dir);
        Path prepare = dir.resolve("prepare.log");
        if (Processes.run(
                        build.kmake(setup.src(), dir, "-j" + setup.jobs(), "prepare"), null, Map.of(), prepare, prepare)
                != 0) {
            throw new KernelCheckException(Processes.tail(prepare, 30) + "\n" + dir + ": make prepare failed");
        }
        Path tool = dir.resolve("scripts/recordmcount");
        if (!Files.isExecutable(tool)) {
            throw new KernelCheckException(tool + ": make prepare did not build the C recordmcount");
        }
        try {
            Files.move(tool, dir.resolve("scripts/recordmcount.c-tool"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Processes.write(dir.resolve("recordmcount-calls.log"), "");
        Processes.write(dir.resolve("recordmcount-failures.log"), "");
        Processes.write(dir.resolve("build.times"), "");
        Processes.write(dir.resolve(STAMP), setup.options().folderName() + "\n");
    }

    private String wrapper(Path dir) {
        String text =
                wrapperText(dir, setup.dir(Build.C_TOOL), setup.mcountkit().entry());
        KernelBuild.script(dir.resolve("scripts/recordmcount"), text);
        return text;
    }

    /** fullsize-wrapper.sh for the build folder {@code dir}, the copies' folder {@code cDir}, mcountkit's {@code entry}. */
    static String wrapperText(Path dir, Path cDir, List<String> entry) {
        return KernelBuild.resource("fullsize-wrapper.sh")
                .replace("@DIR@", KernelBuild.quote(dir.toString()))
                .replace("@CDIR@", KernelBuild.quote(cDir.toString()))
                .replace("@ENTRY@", entry.stream().map(KernelBuild::quote).collect(Collectors.joining(" ")));
    }

    /**
     * build.times: per make run a line "started", then when make ended "REAL USER SYS LOAD_BEFORE
     * LOAD_AFTER" (1-minute load averages). The times of the runs that ended.
     */
    static List<double[]> times(Path dir) {
        return Processes.text(dir.resolve("build.times"))
                .lines()
                .filter(l -> !l.equals(STARTED))
                .map(l -> Arrays.stream(l.trim().split("\\s+"))
                        .mapToDouble(Double::parseDouble)
                        .toArray())
                .toList();
    }

    /** The make runs of build.times that were stopped before their end (their time is not known). */
    static long stoppedRuns(Path dir) {
        List<String> lines = Processes.text(dir.resolve("build.times")).lines().toList();
        return IntStream.range(0, lines.size())
                .filter(i -> lines.get(i).equals(STARTED)
                        && (i + 1 == lines.size() || lines.get(i + 1).equals(STARTED)))
                .count();
    }

    private static String load() {
        return Processes.text(Path.of("/proc/loadavg")).strip().split(" ")[0];
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
