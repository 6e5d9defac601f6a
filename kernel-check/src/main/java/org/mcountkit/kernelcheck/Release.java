package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A Linux release kernel-check builds, from Debian's linux-source package of it, and what differs
 * between the releases where kernel-check has to know.
 */
public enum Release {
    LINUX_6_1("6.1", "REGS", true, ".tmp_vmlinux.kallsyms1"),
    LINUX_6_12("6.12", "ARGS", false, ".tmp_vmlinux1");

    /**
     * --linux's default, and the release the names are written for: its folders and patches have
     * no suffix, and machines.conf's plain enable and disable keys are its options (the others'
     * own keys add to them).
     */
    static final Release DEFAULT = LINUX_6_1;

    private final String version;
    private final String arm64FtraceWith;
    private final boolean testSiphashModule;
    private final String firstKallsymsLink;

    Release(String version, String arm64FtraceWith, boolean testSiphashModule, String firstKallsymsLink) {
        this.version = version;
        this.arm64FtraceWith = arm64FtraceWith;
        this.testSiphashModule = testSiphashModule;
        this.firstKallsymsLink = firstKallsymsLink;
    }

    /** The release as --linux, the package names and the report rows spell it: "6.1". */
    public String version() {
        return version;
    }

    /** The release with --linux's spelling, if kernel-check builds it. */
    static Optional<Release> of(String version) {
        return Arrays.stream(values()).filter(r -> r.version.equals(version)).findFirst();
    }

    /** The versions --linux takes, for its usage message: "6.1 or 6.12". */
    static String choices() {
        return Arrays.stream(values()).map(Release::version).collect(Collectors.joining(" or "));
    }

    /** What names this release's folders, patches and machines.conf keys: "" for the default, "-6.12". */
    String suffix() {
        return this == DEFAULT ? "" : "-" + version;
    }

    /** Debian's package of the source. */
    String sourcePackage() {
        return "linux-source-" + version;
    }

    /** The tarball {@link #sourcePackage()} installs. */
    Path tarball() {
        return Path.of("/usr/src/" + sourcePackage() + ".tar.xz");
    }

    /** The unpacked tree's folder name in the work folder. */
    String sourceFolder() {
        return "linux-" + version;
    }

    /**
     * The suffix of arm64's Kconfig options that pick -fpatchable-function-entry over -pg
     * ({GCC,CLANG}_SUPPORTS_DYNAMIC_FTRACE_WITH_...): 6.12 names them after ARGS, 6.1 after REGS.
     */
    String arm64FtraceWith() {
        return arm64FtraceWith;
    }

    /**
     * The first link scripts/link-vmlinux.sh makes for kallsyms, from which docs/post-link.patch's
     * `mcountkit table` makes the table: 6.12 renamed it.
     */
    String firstKallsymsLink() {
        return firstKallsymsLink;
    }

    /** Whether lib/test_siphash is a module of its own: 6.12 made it a KUnit suite (SIPHASH_KUNIT_TEST). */
    boolean testSiphashModule() {
        return testSiphashModule;
    }
}
