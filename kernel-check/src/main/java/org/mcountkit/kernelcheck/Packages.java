package org.mcountkit.kernelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.mcountkit.testkit.Command;

/** The Debian packages a run needs, installed when missing. */
final class Packages {

    private Packages() {}

    static List<String> needed(Setup setup) {
        Options o = setup.options();
        List<String> packages = new ArrayList<>(List.of(
                o.release().sourcePackage(),
                "make",
                "bc",
                "flex",
                "bison",
                "libelf-dev",
                "libssl-dev",
                "cpio",
                "xz-utils",
                "binutils",
                setup.machine().compilerPackageOn(setup.host()),
                setup.machine().qemuPackage()));
        String cross = setup.cross();
        if (!cross.isEmpty()) {
            packages.add("binutils-" + cross.substring(0, cross.length() - 1));
        }
        // --modules makes an ISO 9660, a FAT and an ext4 image for the modules to mount.
        if (o.loadsModules()) {
            packages.addAll(List.of("genisoimage", "dosfstools", "e2fsprogs"));
        }
        // kcinit links -static against the cross C library, which the cross gcc does not pull in.
        if ((o.prune() || o.loadsModules()) && setup.machine().init() == Machine.Init.KCINIT) {
            packages.add(setup.machine().libcPackage());
        }
        if (o.cc().equals("clang")) {
            packages.addAll(List.of("clang-19", "lld-19", "llvm-19"));
        }
        return packages;
    }

    static boolean installed(String name) {
        return Command.run(null, List.of("dpkg-query", "-W", "-f=${Status}", name))
                .stdout()
                .contains("install ok installed");
    }

    /** sudo when not root and sudo is there. */
    static List<String> sudo() {
        boolean root = Tools.check("id", "-u").strip().equals("0");
        return !root && Command.available("sudo") ? List.of("sudo") : List.of();
    }

    static void install(List<String> packages) {
        List<String> missing = packages.stream().filter(p -> !installed(p)).toList();
        if (missing.isEmpty()) {
            return;
        }
        Setup.say("installing " + String.join(" ", missing));
        // Waits for another apt-get (a parallel job) instead of failing on its lock. One index failing
        // (a mirror mid-sync, often a foreign architecture's) need not stop the install: apt-get
        // install below fails, naming the package, if what it needs is missing.
        if (!tryAptGet(List.of("update", "-q"))) {
            Setup.say("apt-get update failed for some index; installing with what it fetched");
        }
        List<String> install = new ArrayList<>(List.of("install", "-y", "-q", "--no-install-recommends"));
        install.addAll(missing);
        aptGet(install);
    }

    static void aptGet(List<String> args) {
        if (!tryAptGet(args)) {
            throw new KernelCheckException("apt-get " + String.join(" ", args) + " failed");
        }
    }

    /** apt-get with {@code args}; true when it exits 0. */
    static boolean tryAptGet(List<String> args) {
        List<String> command = new ArrayList<>(sudo());
        command.addAll(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o", "DPkg::Lock::Timeout=900"));
        command.addAll(args);
        return Processes.run(command, null, Map.of(), null, null) == 0;
    }
}
