package org.mcountkit.kernelcheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.mcountkit.testkit.Command;

/**
 * The initramfs images the --prune and --modules boots run: Debian's busybox-static for the
 * kernel's machine and an init script, or on a machine Debian 12 has none for, kcinit (the scripts
 * in C, compiled once per run); and for --modules the build's .ko files and file system images.
 * gen_init_cpio, which the build made, writes /dev/console without root.
 * Only emergency messages reach the console while the init prints (dmesg -n 1), so kernel
 * messages do not split its lines.
 */
final class Initramfs {

    /**
     * The modules traced, each with the function that uses it (mounts an image of its file system):
     * modules-init.sh's, and kcinit's of the same name.
     */
    static final List<String> MODULE_USES = List.of(
            "isofs:use_iso",
            "vfat:use_vfat",
            "fat:use_vfat",
            "msdos:use_msdos",
            "ext4:use_ext4",
            "jbd2:use_ext4",
            "mbcache:use_ext4",
            "configfs:use_configfs",
            WeakModule.NAME + ":use_kcweak");

    private final Setup setup;

    /** kcinit once compiled for this run's initramfs images; null until one needs it. */
    private Path kcinit;

    Initramfs(Setup setup) {
        this.setup = setup;
    }

    /** Debian's busybox-static for the kernel's machine, downloaded once into the work folder; the folder holding bin/busybox. */
    Path busybox() {
        String debarch = setup.machine().busyboxArch();
        Path bb = setup.work().resolve("busybox-static-" + debarch);
        if (Files.isExecutable(bb.resolve("bin/busybox"))) {
            return bb;
        }
        String native_ = Tools.check("dpkg", "--print-architecture").strip();
        if (!debarch.equals(native_)
                && Tools.check("dpkg", "--print-foreign-architectures").lines().noneMatch(debarch::equals)) {
            List<String> add = new ArrayList<>(Packages.sudo());
            add.addAll(List.of("dpkg", "--add-architecture", debarch));
            if (Processes.run(add, null, Map.of(), null, null) != 0) {
                throw new KernelCheckException("dpkg --add-architecture " + debarch + " failed");
            }
            // One suite's index of the new architecture failing (a mirror mid-sync) need not stop the
            // download: apt-get download below fails, naming the package, if its index is missing.
            if (!Packages.tryAptGet(List.of("update", "-q"))) {
                Setup.say("apt-get update failed for some index; trying the download with what it fetched");
            }
        }
        Path tmp = bb.resolveSibling(bb.getFileName() + ".tmp");
        Source.remove(tmp);
        KernelBuild.mkdirs(tmp);
        if (Processes.run(List.of("apt-get", "download", "-q", "busybox-static:" + debarch), tmp, Map.of(), null, null)
                != 0) {
            throw new KernelCheckException("apt-get download busybox-static:" + debarch + " failed");
        }
        File[] debs = tmp.toFile().listFiles((d, n) -> n.startsWith("busybox-static_") && n.endsWith(".deb"));
        if (debs == null || debs.length != 1) {
            throw new KernelCheckException("apt-get download busybox-static:" + debarch + " left no one .deb");
        }
        Command.check(
                null, "dpkg-deb", "-x", debs[0].toString(), tmp.resolve("root").toString());
        if (!Files.isExecutable(tmp.resolve("root/bin/busybox"))) {
            throw new KernelCheckException("busybox-static:" + debarch + " has no /bin/busybox");
        }
        try {
            Files.move(tmp.resolve("root"), bb);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Source.remove(tmp);
        return bb;
    }

    /** --prune: /init prints available_filter_functions between two marker lines and powers off. */
    Path forPrune() {
        return withInit("prune-init.sh");
    }

    /** A plain boot: /init prints ftrace's lists (ftrace-dump.sh) and powers off. */
    Path forFunctions() {
        return withInit("functions-init.sh");
    }

    private Path withInit(String script) {
        Path out = setup.out();
        List<String> list = new ArrayList<>(base(out.resolve("init"), script));
        list.add("dir /t 755 0 0");
        return cpio(setup.dir(Build.MCOUNTKIT), out.resolve("initramfs.list"), list, out.resolve("initramfs.cpio"));
    }

    /**
     * The lines every initramfs starts with: the console, /init, /proc. /init is {@code script}
     * (the resource written there) run by busybox, or kcinit, which finds out from the initramfs
     * which script it stands for.
     */
    private List<String> base(Path script, String resource) {
        List<String> lines = new ArrayList<>(List.of("dir /dev 755 0 0", "nod /dev/console 600 0 0 c 5 1"));
        if (setup.machine().init() == Machine.Init.BUSYBOX) {
            KernelBuild.script(script, KernelBuild.resource(resource));
            Path dump = script.resolveSibling("ftrace-dump.sh");
            Processes.write(dump, KernelBuild.resource("ftrace-dump.sh"));
            lines.addAll(List.of(
                    "dir /bin 755 0 0",
                    "file /bin/busybox " + busybox().resolve("bin/busybox") + " 755 0 0",
                    "file /init " + script + " 755 0 0",
                    "file /ftrace-dump.sh " + dump + " 644 0 0"));
        } else {
            if (kcinit == null) {
                kcinit = Kcinit.compile(setup.cross() + "gcc", setup.out());
            }
            lines.add("file /init " + kcinit + " 755 0 0");
        }
        lines.add("dir /proc 755 0 0");
        return lines;
    }

    /** One .ko: NAME from .modinfo (as the kernel tags the module), FILE relative to the build folder, its dependencies. */
    record Module(String name, String file, List<String> depends) {
        String line() {
            return name + " " + file + " " + (depends.isEmpty() ? "-" : String.join(",", depends));
        }
    }

    /** Every .ko of a build folder, sorted by path (module_list). */
    static List<Module> modules(Path dir) {
        List<Module> modules = new ArrayList<>();
        for (String rel : ObjectComparison.objectsOf(dir)) {
            if (!rel.endsWith(".ko")) {
                continue;
            }
            String name = "";
            List<String> depends = List.of();
            String info = Tools.run(
                    "readelf", "-W", "-p", ".modinfo", dir.resolve(rel).toString());
            for (String line : info.split("\n")) {
                String field = line.replaceFirst("^ *\\[ *[0-9a-f]*\\] *", "");
                if (field.startsWith("name=")) {
                    name = field.substring("name=".length());
                } else if (field.startsWith("depends=") && field.length() > "depends=".length()) {
                    depends = List.of(field.substring("depends=".length()).split(","));
                }
            }
            if (name.isEmpty()) {
                throw new KernelCheckException(dir.resolve(rel) + ": no name= in .modinfo");
            }
            modules.add(new Module(name, rel, depends));
        }
        return modules;
    }

    /** The module names in load order: each after the modules it depends on (tsort). */
    static List<String> order(List<Module> modules, Path scratch) {
        List<String> pairs = new ArrayList<>();
        for (Module m : modules) {
            pairs.add(m.name() + " " + m.name());
            m.depends().forEach(d -> pairs.add(d + " " + m.name()));
        }
        Processes.write(scratch, String.join("\n", pairs) + "\n");
        return Tools.check("tsort", scratch.toString()).lines().toList();
    }

    /**
     * The images the modules mount, made once per run: ISO 9660 (isofs), FAT (vfat, msdos, fat),
     * ext4 (ext4, jbd2, mbcache) with a journal; each with one file, the FAT one empty (no mtools).
     */
    void moduleImages() {
        Path images = setup.out().resolve("images");
        Source.remove(images);
        Processes.write(images.resolve("files/hello.txt"), "kernel-check module image\n");
        run(
                "genisoimage failed",
                "genisoimage",
                "-quiet",
                "-R",
                "-o",
                images.resolve("iso.img").toString(),
                images.resolve("files").toString());
        run("mkfs.vfat failed", "mkfs.vfat", "-C", images.resolve("fat.img").toString(), "1024");
        run(
                "mke2fs failed",
                "mke2fs",
                "-q",
                "-F",
                "-t",
                "ext4",
                "-b",
                "1024",
                "-d",
                images.resolve("files").toString(),
                images.resolve("ext4.img").toString(),
                "4M");
        Processes.write(setup.out().resolve("modules.uses"), String.join("\n", MODULE_USES) + "\n");
    }

    private static void run(String failure, String... command) {
        if (Processes.run(List.of(command), null, Map.of(), Path.of("/dev/null"), null) != 0) {
            throw new KernelCheckException(failure);
        }
    }

    /** The initramfs of one build: busybox, the init script, the images and the build's .ko files. */
    Path forModules(Build kernel) {
        return forModules(kernel, modules(setup.dir(kernel)));
    }

    /** The initramfs of one build with only {@code modules} of its .ko files (--config loads a handful). */
    Path forModules(Build kernel, List<Module> modules) {
        Path dir = setup.dir(kernel);
        Path out = setup.out();
        Processes.write(
                dir.resolve("modules.list"),
                lines(modules.stream().map(Module::line).toList()));
        List<String> order = order(modules, dir.resolve("modules.pairs"));
        Processes.write(dir.resolve("modules.order"), lines(order));
        List<String> list = new ArrayList<>(base(out.resolve("modules-init"), "modules-init.sh"));
        list.addAll(List.of(
                "dir /sys 755 0 0",
                "dir /t 755 0 0",
                "dir /mnt 755 0 0",
                "dir /cfg 755 0 0",
                "dir /images 755 0 0",
                "dir /modules 755 0 0",
                "file /modules/order " + dir.resolve("modules.order") + " 644 0 0",
                "file /modules/uses " + out.resolve("modules.uses") + " 644 0 0"));
        for (String image : List.of("iso", "fat", "ext4")) {
            list.add("file /images/" + image + ".img " + out.resolve("images/" + image + ".img") + " 644 0 0");
        }
        modules.forEach(m -> list.add("file /modules/" + m.name() + ".ko " + dir.resolve(m.file()) + " 644 0 0"));
        return cpio(dir, dir.resolve("initramfs.list"), list, dir.resolve("initramfs.cpio"));
    }

    static String lines(List<String> lines) {
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    private static Path cpio(Path build, Path listFile, List<String> list, Path cpio) {
        Processes.write(listFile, lines(list));
        Path gen = build.resolve("usr/gen_init_cpio");
        if (!Files.isExecutable(gen)) {
            throw new KernelCheckException(gen + ": the build made no gen_init_cpio");
        }
        if (Processes.run(List.of(gen.toString(), listFile.toString()), null, Map.of(), cpio, null) != 0) {
            throw new KernelCheckException("gen_init_cpio failed");
        }
        return cpio;
    }
}
