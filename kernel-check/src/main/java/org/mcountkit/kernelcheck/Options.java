package org.mcountkit.kernelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** bin/kernel-check's command line, with the combinations it refuses. */
public record Options(
        Release release,
        String cc,
        boolean reuse,
        boolean modules,
        boolean prune,
        boolean kernelTables,
        List<String> enable,
        boolean perLink,
        String config,
        boolean fresh,
        boolean debianKernel,
        String arch) {

    public static final String USAGE =
            "usage: bin/kernel-check [--linux 6.1|6.12] [--cc gcc|clang] [--reuse] [--modules]"
                    + " [--prune [--kernel-tables] | --per-link | --config TARGET [--fresh] | --debian-kernel]"
                    + " [--enable 'OPTION...'] ARCH"
                    + "   (x86_64, i386, arm64, arm, arm-thumb2, mips, mips64, ppc64le, ppc64, sparc64)";

    /** A command line kernel-check refuses: the lines to print, exit 2. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    /** Options before ARCH, ARCH last: every word but the last is an option or an option's value. */
    public static Options parse(List<String> args) {
        String linux = Release.DEFAULT.version();
        String cc = "gcc";
        boolean reuse = false;
        boolean modules = false;
        boolean prune = false;
        boolean kernelTables = false;
        boolean perLink = false;
        String config = "";
        boolean fresh = false;
        boolean debianKernel = false;
        List<String> enable = new ArrayList<>();
        int i = 0;
        for (; i < args.size() - 1; i++) {
            String arg = args.get(i);
            boolean valued =
                    arg.equals("--linux") || arg.equals("--cc") || arg.equals("--enable") || arg.equals("--config");
            if (valued && i + 2 >= args.size()) {
                throw new UsageException(USAGE);
            }
            switch (arg) {
                case "--linux" -> linux = args.get(++i);
                case "--cc" -> cc = args.get(++i);
                case "--enable" -> enable.addAll(Machines.words(args.get(++i).strip()));
                case "--reuse" -> reuse = true;
                case "--modules" -> modules = true;
                case "--prune" -> prune = true;
                case "--kernel-tables" -> kernelTables = true;
                case "--per-link" -> perLink = true;
                case "--config" -> config = args.get(++i);
                case "--fresh" -> fresh = true;
                case "--debian-kernel" -> debianKernel = true;
                default -> throw new UsageException(USAGE);
            }
        }
        if (i != args.size() - 1) {
            throw new UsageException(USAGE);
        }
        if (!enable.isEmpty() && !prune && config.isEmpty()) {
            throw new UsageException("kernel-check: --enable goes with --prune or --config");
        }
        if (kernelTables && !prune) {
            throw new UsageException("kernel-check: --kernel-tables goes with --prune");
        }
        if (perLink && prune) {
            throw new UsageException("kernel-check: --per-link and --prune are separate checks");
        }
        if (modules && prune) {
            throw new UsageException("kernel-check: --modules and --prune are separate runs");
        }
        if (!config.isEmpty() && (prune || perLink || modules)) {
            throw new UsageException("kernel-check: --config is one build of its own (not with --prune, --per-link or"
                    + " --modules: it loads a handful of its own modules)");
        }
        if (fresh && config.isEmpty()) {
            throw new UsageException("kernel-check: --fresh goes with --config");
        }
        if (!config.matches("[A-Za-z0-9_.-]*")) {
            throw new UsageException("kernel-check: --config takes a make config target, such as multi_v7_defconfig");
        }
        Release release = Release.of(linux)
                .orElseThrow(() -> new UsageException(
                        "kernel-check: --linux takes " + Release.choices() + " (Debian's linux-source packages)"));
        if (!cc.equals("gcc") && !cc.equals("clang")) {
            throw new UsageException("kernel-check: --cc takes gcc or clang");
        }
        if (debianKernel
                && (prune
                        || perLink
                        || modules
                        || !config.isEmpty()
                        || !enable.isEmpty()
                        || reuse
                        || !cc.equals("gcc")
                        || release != Release.DEFAULT)) {
            throw new UsageException("kernel-check: --debian-kernel checks Debian 12's own " + Release.DEFAULT.version()
                    + " kernel, which builds nothing here: it takes no other option");
        }
        return new Options(
                release,
                cc,
                reuse,
                modules,
                prune,
                kernelTables,
                List.copyOf(enable),
                perLink,
                config,
                fresh,
                debianKernel,
                args.get(i));
    }

    /**
     * The run's folder name under the work folder: ARCH, then one suffix per option that changes
     * what is built (the --prune runs keep a folder per set of extra options).
     */
    public String folderName() {
        StringBuilder name = new StringBuilder(arch);
        name.append(release.suffix());
        if (!cc.equals("gcc")) {
            name.append('-').append(cc);
        }
        if (prune) {
            name.append("-prune");
        }
        if (modules) {
            name.append("-modules");
        }
        if (kernelTables) {
            name.append("-kernel-tables");
        }
        for (String option : enable) {
            name.append('-').append(option.toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        if (perLink) {
            name.append("-per-link");
        }
        if (fullSize()) {
            name.append("-config-").append(config);
        }
        if (debianKernel) {
            name.append("-debian-kernel");
        }
        return name.toString();
    }

    /** --config: one build of a whole configuration, both tools run on each object (FullSizeCheck). */
    public boolean fullSize() {
        return !config.isEmpty();
    }

    /** The make target the configuration starts from: --config's, or tinyconfig. */
    public String configTarget() {
        return fullSize() ? config : "tinyconfig";
    }

    /** The initramfs loads modules: --modules' set, --config's handful, or Debian's (--debian-kernel). */
    public boolean loadsModules() {
        return modules || fullSize() || debianKernel;
    }

    /** The kind of check: parse lets at most one of --prune, --per-link and --config through. */
    public Mode mode() {
        if (debianKernel) {
            return Mode.DEBIAN_KERNEL;
        }
        if (fullSize()) {
            return Mode.FULL_SIZE;
        }
        if (prune) {
            return Mode.PRUNE;
        }
        return perLink ? Mode.PER_LINK : Mode.PER_OBJECT;
    }

    /** The kernels booted and checked: the C tool's and mcountkit's, or with --prune mcountkit's before and after. */
    public List<Build> kernels() {
        return mode().kernels();
    }
}
