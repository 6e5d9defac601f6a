package org.mcountkit.kernelcheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * --debian-kernel: Debian 12's own kernel and modules, as its users install them, built by Debian
 * and not here. The machine's current {@code linux-image} package (its vmlinuz, configuration and
 * modules) and the {@code -dbg} package (the unstripped vmlinux and the real System.map) are
 * downloaded; the kernel boots with an initramfs that loads a handful of its modules and prints
 * ftrace's lists, which must equal {@code mcountkit functions} line for line, from the {@code -dbg}
 * vmlinux and, where scripts/extract-vmlinux unpacks an ELF from vmlinuz, from that stripped image
 * with {@code --system-map}.
 */
record DebianKernelCheck(Setup setup) implements Check {

    /**
     * Debian's kernel flavour of each architecture kernel-check boots it on: those whose image
     * package has the -unsigned and -dbg packages this check downloads.
     */
    private static final Map<String, String> FLAVOURS = Map.of("amd64", "amd64", "arm64", "arm64");

    /** Loaded in this order where the package has them as modules; loop lets isofs mount its image. */
    static final List<String> HANDFUL = List.of("crc32_generic", "irqbypass", "kvm", "loop", "cdrom", "isofs");

    @Override
    public boolean run() {
        RunSteps.freshOut(setup);
        Path dir = setup.dir(Build.DEBIAN);
        KernelBuild.mkdirs(dir);
        String debarch = setup.machine().busyboxArch();
        String flavour = Optional.ofNullable(FLAVOURS.get(debarch))
                .orElseThrow(() -> new KernelCheckException("--debian-kernel: no Debian kernel flavour known for "
                        + setup.arch() + " (Debian architecture '" + debarch + "')"));
        String image = currentImage(flavour, debarch);
        Path root = unpack(image, debarch);
        Path vmlinuz = only(root.resolve("boot"), "vmlinuz-");
        Path config = only(root.resolve("boot"), "config-");
        Path debug = root.resolve("usr/lib/debug/boot");
        Path systemMap = only(debug, "System.map-");
        link(only(debug, "vmlinux-"), dir.resolve("vmlinux"));
        link(config, dir.resolve(".config"));
        List<Initramfs.Module> modules = handful(root, dir);
        compileGenInitCpio(dir);
        Qemu.boot(setup, dir, vmlinuz, FullSizeModules.initramfs(setup, Build.DEBIAN, modules));

        StringBuilder report = new StringBuilder();
        KernelReport.line(
                report,
                "kernel-check --debian-kernel " + setup.arch() + ": Debian's own "
                        + Processes.text(root.resolve(".kernel-check-" + image + "-unsigned"))
                                .strip()
                        + " and its -dbg package, booted with " + modules.size() + " of its modules");
        BootLog boot = new BootLog(Processes.text(dir.resolve("boot.txt")));
        List<String> reasons = new ArrayList<>(boot.problemsWithoutSelfTests(setup.ending()));
        KernelReport.line(
                report,
                "Boot (QEMU exit " + KernelReport.status(dir.resolve("boot.status")) + "): ftrace allocating "
                        + boot.allocating().orElse("?") + " entries; loaded: "
                        + String.join(" ", FunctionsCheck.loaded(boot.lines())));
        KernelReport.problems(report, reasons, "  ");
        Findings functions = FunctionsCheck.check(setup, Build.DEBIAN);
        report.append("Functions of Debian's kernel (its -dbg vmlinux, its .config, the modules in load order):\n");
        functions.appendTo(report, "  ");
        reasons.addAll(functions.reasons());
        reasons.addAll(fromSystemMap(dir, vmlinuz, systemMap, boot, report));
        KernelReport.line(report, "");
        KernelReport.line(
                report,
                "kernel-check --debian-kernel " + setup.arch() + ": "
                        + (reasons.isEmpty() ? "PASS" : "FAIL (" + reasons.size() + " reasons above)"));
        RunSteps.write(setup, report);
        RunSteps.sayWritten(setup);
        return reasons.isEmpty();
    }

    /** The package the flavour's metapackage installs today: "linux-image-6.1.0-56-amd64". */
    private static String currentImage(String flavour, String debarch) {
        String meta = "linux-image-" + flavour + ":" + debarch;
        for (String line : Tools.check("apt-cache", "depends", meta).lines().toList()) {
            String f = line.strip();
            if (f.startsWith("Depends: linux-image-")) {
                return f.substring("Depends: ".length()).replaceFirst(":.*", "");
            }
        }
        throw new KernelCheckException("apt-cache depends " + meta + " names no linux-image package");
    }

    /**
     * The image's unsigned package and its -dbg package unpacked once into the run's cache (the
     * -dbg package is most of a gigabyte: only its /usr/lib/debug/boot is kept).
     */
    private Path unpack(String image, String debarch) {
        Path root = setup.work().resolve("debian-" + image);
        Path stamp = root.resolve(".kernel-check-unpacked");
        if (Files.exists(stamp)) {
            return root;
        }
        Path tmp = setup.work().resolve("debian-" + image + ".tmp");
        Source.remove(tmp);
        Source.remove(root);
        KernelBuild.mkdirs(tmp);
        for (String pkg : List.of(image + "-unsigned", image + "-dbg")) {
            Setup.say(setup.arch() + ": downloading Debian's " + pkg);
            if (Processes.run(List.of("apt-get", "download", "-q", pkg + ":" + debarch), tmp, Map.of(), null, null)
                    != 0) {
                throw new KernelCheckException("apt-get download " + pkg + ":" + debarch + " failed");
            }
            File[] debs = tmp.toFile().listFiles((d, n) -> n.startsWith(pkg + "_") && n.endsWith(".deb"));
            if (debs == null || debs.length != 1) {
                throw new KernelCheckException("apt-get download " + pkg + " left no one .deb");
            }
            Path deb = debs[0].toPath();
            String extract = pkg.endsWith("-dbg")
                    ? "dpkg-deb --fsys-tarfile '" + deb + "' | tar -x -C '" + tmp.resolve("root")
                            + "' --wildcards './usr/lib/debug/boot/*'"
                    : "dpkg-deb -x '" + deb + "' '" + tmp.resolve("root") + "'";
            KernelBuild.mkdirs(tmp.resolve("root"));
            if (Processes.run(List.of("sh", "-ec", extract), null, Map.of(), null, null) != 0) {
                throw new KernelCheckException("cannot unpack " + deb);
            }
            Processes.write(tmp.resolve("root/.kernel-check-" + pkg), deb.getFileName() + "\n");
            Source.remove(deb);
        }
        try {
            Files.move(tmp.resolve("root"), root);
            Files.writeString(stamp, image + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Source.remove(tmp);
        return root;
    }

    /** The one file of {@code folder} whose name starts with {@code prefix}. */
    private static Path only(Path folder, String prefix) {
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().startsWith(prefix))
                    .toList();
            if (found.size() != 1) {
                throw new KernelCheckException(folder + ": " + found.size() + " files named " + prefix + "*, not one");
            }
            return found.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void link(Path target, Path link) {
        try {
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The handful's .ko files the package has, copied into the run's folder with what they depend
     * on, as Initramfs.modules reads them (only these: the package has thousands).
     */
    private static List<Initramfs.Module> handful(Path root, Path dir) {
        Map<String, Path> byName = new HashMap<>();
        try (Stream<Path> files = Files.walk(root.resolve("lib/modules"))) {
            files.filter(f -> f.getFileName().toString().endsWith(".ko"))
                    .forEach(f -> byName.putIfAbsent(
                            f.getFileName().toString().replace(".ko", "").replace('-', '_'), f));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path modules = dir.resolve("modules");
        Source.remove(modules);
        KernelBuild.mkdirs(modules);
        Map<String, Path> taken = new LinkedHashMap<>();
        List<String> todo = new ArrayList<>(HANDFUL);
        while (!todo.isEmpty()) {
            String name = todo.remove(0);
            Path ko = byName.get(name);
            if (ko == null || taken.containsKey(name)) {
                continue;
            }
            try {
                taken.put(name, Files.copy(ko, modules.resolve(name + ".ko"), StandardCopyOption.REPLACE_EXISTING));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Initramfs.modules(dir).stream().filter(m -> m.name().equals(name)).forEach(m -> todo.addAll(m.depends()));
        }
        return Initramfs.modules(dir);
    }

    private static boolean isElf(Path file) {
        try (var in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        } catch (IOException e) {
            return false;
        }
    }

    /** Debian's kernel comes without a build folder: the kernel source's own gen_init_cpio, built here. */
    private void compileGenInitCpio(Path dir) {
        Path gen = dir.resolve("usr/gen_init_cpio");
        KernelBuild.mkdirs(gen.getParent());
        List<String> cc = List.of(
                "gcc",
                "-O2",
                "-o",
                gen.toString(),
                setup.src().resolve("usr/gen_init_cpio.c").toString());
        if (Processes.run(cc, null, Map.of(), null, null) != 0) {
            throw new KernelCheckException("cannot compile the kernel's usr/gen_init_cpio.c");
        }
    }

    /**
     * The same lists from the stripped image scripts/extract-vmlinux unpacks from vmlinuz, with
     * --system-map; skipped, and said, where vmlinuz holds no ELF (arm64's Image).
     */
    private List<String> fromSystemMap(Path dir, Path vmlinuz, Path systemMap, BootLog boot, StringBuilder report) {
        Path stripped = dir.resolve("vmlinux.extracted");
        List<String> extract =
                List.of("sh", setup.src().resolve("scripts/extract-vmlinux").toString(), vmlinuz.toString());
        // extract-vmlinux exits 0 even when it finds nothing ("Cannot find vmlinux."): its output says.
        if (Processes.run(extract, null, Map.of(), stripped, dir.resolve("extract-vmlinux.err")) != 0
                || !isElf(stripped)) {
            KernelReport.line(
                    report,
                    "From vmlinuz with --system-map: not checked, scripts/extract-vmlinux finds no ELF" + " image in "
                            + vmlinuz.getFileName());
            return List.of();
        }
        List<String> args = new ArrayList<>(List.of(
                "functions",
                "-q",
                "--config",
                dir.resolve(".config").toString(),
                "--system-map",
                systemMap.toString(),
                stripped.toString()));
        FunctionsCheck.loaded(boot.lines())
                .forEach(m -> args.add(dir.resolve("modules/" + m + ".ko").toString()));
        Path out = dir.resolve("functions-system-map.expected");
        int status = setup.mcountkit().run(out, dir.resolve("functions-system-map.err"), args.toArray(String[]::new));
        List<String> fromMap = Processes.text(out).lines().toList();
        List<String> fromDebug =
                Processes.text(dir.resolve("functions.expected")).lines().toList();
        if (status == 0 && fromMap.equals(fromDebug)) {
            KernelReport.line(
                    report,
                    "From vmlinuz (scripts/extract-vmlinux) with --system-map: " + fromMap.size()
                            + " lines, the same as from the -dbg vmlinux");
            return List.of();
        }
        String reason = "mcountkit functions --system-map on the image from vmlinuz "
                + (status != 0
                        ? "exits " + status + " (" + dir.resolve("functions-system-map.err") + ")"
                        : "differs from the -dbg vmlinux's (" + fromMap.size() + " lines, " + fromDebug.size() + ")");
        KernelReport.line(report, "From vmlinuz with --system-map: FAIL: " + reason);
        return List.of(reason);
    }
}
