package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/** The steps the two-kernel modes share: the run's folder, the boots and verify, the report file. */
final class RunSteps {

    private RunSteps() {}

    /** --reuse: every kernel of the run must have been built to its boot image by the last run. */
    static void requireFinished(Setup setup) {
        for (Build kernel : setup.kernels()) {
            if (!Files.isRegularFile(setup.dir(kernel).resolve(setup.machine().image()))) {
                throw new KernelCheckException("--reuse: no finished " + kernel + " build in " + setup.dir(kernel));
            }
        }
    }

    /** An empty run folder: every run builds afresh. */
    static void freshOut(Setup setup) {
        Source.remove(setup.out());
        KernelBuild.mkdirs(setup.out());
    }

    /** Boots every kernel with its initramfs, then runs {@code mcountkit verify} on each. */
    static Map<Build, VerifyRun> bootAndVerify(Setup setup, Map<Build, Path> initrds) {
        for (Build kernel : setup.kernels()) {
            Qemu.boot(setup, setup.dir(kernel), initrds.get(kernel));
        }
        Map<Build, VerifyRun> verifies = new LinkedHashMap<>();
        for (Build kernel : setup.kernels()) {
            verifies.put(kernel, VerifyRun.run(setup.mcountkit(), setup.dir(kernel)));
        }
        return verifies;
    }

    /** The source's {@code make kernelversion}: "6.1.158". */
    static String kernelVersion(Setup setup) {
        return Tools.check("make", "-s", "-C", setup.src().toString(), "kernelversion")
                .strip();
    }

    /**
     * Appends each kernel's lists against {@code mcountkit functions} ({@link FunctionsCheck});
     * true when they agree.
     */
    static boolean functions(Setup setup, StringBuilder report) {
        boolean pass = true;
        for (Build kernel : setup.kernels()) {
            Findings findings = FunctionsCheck.check(setup, kernel);
            report.append("Functions of the ").append(kernel).append(" kernel:\n");
            findings.appendTo(report, "  ");
            pass &= findings.pass();
        }
        return pass;
    }

    /** Prints the report's first part and writes it to report.txt. */
    static void write(Setup setup, CharSequence text) {
        print(text);
        try {
            Files.writeString(setup.report(), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Prints a later part of the report and adds it to report.txt. */
    static void append(Setup setup, CharSequence text) {
        print(text);
        try {
            Files.writeString(setup.report(), text, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void print(CharSequence text) {
        System.out.print(text);
        System.out.flush();
    }

    static void sayWritten(Setup setup) {
        Setup.say("report written to " + setup.report());
    }
}
