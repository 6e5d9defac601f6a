package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a run is about, fixed at its start: the options, the machine's row, the host, the
 * folders and the environment's settings.
 */
record Setup(
        Options options,
        Machine machine,
        String host,
        Mcountkit mcountkit,
        Path work,
        Path src,
        Path out,
        int jobs,
        int bootTimeout,
        int cores) {

    /**
     * The folders from the environment: MCOUNTKIT_KERNEL_DIR (cache and work folder, default
     * ~/.cache/mcountkit/kernel-check), MCOUNTKIT_KERNEL_JOBS (make -j, default the number of
     * cores), MCOUNTKIT_KERNEL_BOOT_TIMEOUT (seconds per boot, default 600).
     */
    static Setup of(Options options, Machine machine, String host, Path root, Map<String, String> env, int cores) {
        Path work = env.containsKey("MCOUNTKIT_KERNEL_DIR")
                ? Path.of(env.get("MCOUNTKIT_KERNEL_DIR"))
                : Path.of(env.getOrDefault("XDG_CACHE_HOME", env.get("HOME") + "/.cache"), "mcountkit", "kernel-check");
        // --kernel-tables builds from a source without the Kconfig edits, so the kernel writes its
        // tables its own way (arm64: gcc's -fpatchable-function-entry; x86_64: objtool).
        Path src = work.resolve(options.release().sourceFolder() + (options.kernelTables() ? "-unedited" : ""));
        int jobs = Integer.parseInt(env.getOrDefault("MCOUNTKIT_KERNEL_JOBS", Integer.toString(cores)));
        // A full configuration runs its many trace events' self-tests at boot: minutes under QEMU.
        int timeout = Integer.parseInt(
                env.getOrDefault("MCOUNTKIT_KERNEL_BOOT_TIMEOUT", options.fullSize() ? "1800" : "600"));
        return new Setup(
                options,
                machine,
                host,
                new Mcountkit(root),
                work,
                src,
                work.resolve(options.folderName()),
                jobs,
                timeout,
                cores);
    }

    String arch() {
        return options.arch();
    }

    String cross() {
        return machine.crossOn(host);
    }

    Path tarball() {
        return options.release().tarball();
    }

    Path report() {
        return out.resolve("report.txt");
    }

    Path dir(Build kernel) {
        return out.resolve(kernel.id());
    }

    List<Build> kernels() {
        return options.kernels();
    }

    /** How the boots end: the initramfs's end marker, or the panic of a kernel with no init. */
    BootLog.Ending ending() {
        if (options.prune()) {
            return BootLog.Ending.FILTER_FUNCTIONS;
        }
        return options.loadsModules() ? BootLog.Ending.MODULES : BootLog.Ending.FUNCTIONS;
    }

    /** Progress on standard error, as "kernel-check: MESSAGE". */
    static void say(String message) {
        System.err.println("kernel-check: " + message);
    }
}
