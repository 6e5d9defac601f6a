package org.mcountkit.kernelcheck;

import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * bin/kernel-check: builds a small Linux 6.1 (or 6.12) kernel whose ftrace tables come from
 * recordmcount twice, once with the kernel's own C recordmcount and once with mcountkit writing
 * every table, boots both in QEMU and passes only when the mcountkit kernel runs every ftrace
 * start-up self-test to PASSED and {@code mcountkit verify vmlinux} finds no bad entry. Reports both
 * build times and every difference between the two kernels' tables, with its reason. The launcher
 * (bin/kernel-check) documents the options.
 */
public final class KernelCheck {

    private final Setup setup;
    private final KernelBuild build;

    private KernelCheck(Setup setup) {
        this.setup = setup;
        this.build = new KernelBuild(setup);
    }

    /** The checkout's root comes from the launcher as -Dmcountkit.root. */
    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), Path.of(System.getProperty("mcountkit.root", ".")), System.getenv()));
    }

    static int run(List<String> args, Path root, Map<String, String> env) {
        Options options;
        Machine machine;
        try {
            options = Options.parse(args);
            Machines machines = Machines.bundled();
            machine = machines.get(options.arch())
                    .orElseThrow(() -> new Options.UsageException(
                            "kernel-check: unknown ARCH '" + options.arch() + "'\n" + Options.USAGE));
            Optional<String> refusal = refusal(options, machine);
            if (refusal.isPresent()) {
                throw new Options.UsageException(refusal.get());
            }
        } catch (Options.UsageException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        try {
            String host = Tools.check("uname", "-m").strip();
            Setup setup = Setup.of(
                    options, machine, host, root, env, Runtime.getRuntime().availableProcessors());
            return new KernelCheck(setup).check() ? 0 : 1;
        } catch (KernelCheckException | UncheckedIOException | AssertionError e) {
            System.err.println("kernel-check: " + e.getMessage());
            return 1;
        }
    }

    /** Why this run cannot build at all: clang on a machine the release does not build with it. */
    static Optional<String> refusal(Options options, Machine machine) {
        String reason = machine.clangRefusals().get(options.release());
        if (!options.cc().equals("clang") || reason == null) {
            return Optional.empty();
        }
        return Optional.of("kernel-check: Linux " + options.release().version() + " does not build " + options.arch()
                + " with clang-19: " + reason);
    }

    private boolean check() {
        Options o = setup.options();
        Packages.install(Packages.needed(setup));
        KernelBuild.mkdirs(setup.work());
        // --reuse builds nothing and leaves the source alone, so it does not wait.
        if (o.reuse()) {
            return runCheck();
        }
        WorkLock lock = WorkLock.take(setup.work());
        try {
            Source.prepare(setup);
            return runCheck();
        } finally {
            Reference.reachabilityFence(lock);
        }
    }

    private boolean runCheck() {
        Check check = Check.of(setup, build);
        check.prepare();
        setup.mcountkit().warmUp();
        return check.run();
    }
}
