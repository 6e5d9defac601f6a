package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * --prune: builds the mcountkit kernel, keeps its vmlinux and boot image in out/unpruned, then
 * makes it again with README's recipe and keeps the result in out/pruned.
 */
final class PruneBuild {

    /** README's recipe, verbatim: this line right after the sorttable block of scripts/link-vmlinux.sh. */
    static final String RECIPE = "if is_enabled CONFIG_FTRACE_MCOUNT_RECORD && ! is_enabled"
            + " CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY; then info PRUNE vmlinux; mcountkit prune -q vmlinux"
            + " || exit 1; fi";

    private PruneBuild() {}

    /** link-vmlinux.sh with the recipe after its sorttable block; fails when it has none. */
    static String withRecipe(String linkVmlinux) {
        List<String> out = new ArrayList<>();
        boolean block = false;
        boolean added = false;
        for (String line : linkVmlinux.split("\n", -1)) {
            out.add(line);
            if (line.equals("if is_enabled CONFIG_BUILDTIME_TABLE_SORT; then")) {
                block = true;
            } else if (block && line.equals("fi")) {
                out.add(RECIPE);
                block = false;
                added = true;
            }
        }
        if (!added) {
            throw new KernelCheckException("scripts/link-vmlinux.sh: no sorttable block to add the prune step after");
        }
        return String.join("\n", out);
    }

    /**
     * The build folder gets the changed copy of the script: make looks for a prerequisite there
     * before the source (VPATH), so the shared source stays untouched, and since the script
     * changed, make links vmlinux again (pruning it) and redoes the boot image from it, as a
     * user's build would.
     */
    static void run(Setup setup, KernelBuild build) {
        Path out = setup.out();
        Path dir = setup.dir(Build.MCOUNTKIT);
        String image = setup.machine().image();
        build.build(Build.MCOUNTKIT, setup.src(), Map.of());
        keep(dir, setup.dir(Build.UNPRUNED), image);
        Path dry = out.resolve("prune-dry-run.txt");
        if (setup.mcountkit()
                        .run(
                                dry,
                                dry,
                                "prune",
                                "--dry-run",
                                dir.resolve("vmlinux").toString())
                != 0) {
            throw new KernelCheckException(
                    Processes.text(dry) + dir.resolve("vmlinux") + ": mcountkit prune --dry-run failed");
        }
        KernelBuild.script(
                dir.resolve("scripts/link-vmlinux.sh"),
                withRecipe(Processes.text(setup.src().resolve("scripts/link-vmlinux.sh"))));
        Setup.say(setup.arch() + ": linking vmlinux again with the prune step (make -j" + setup.jobs() + ")");
        Path log = dir.resolve("prune-build.log");
        Map<String, String> env = Map.of("PATH", setup.mcountkit().root().resolve("bin") + ":" + System.getenv("PATH"));
        BuildTime time = BuildTime.of(
                () -> Processes.run(build.kmake(setup.src(), dir, "-j" + setup.jobs()), null, env, log, log));
        if (time.status() != 0) {
            throw new KernelCheckException(
                    Processes.tail(log, 30) + "\n" + dir + ": the build with the prune step failed (see " + log + ")");
        }
        Processes.write(out.resolve("prune-build.time"), time.line() + "\n");
        if (Processes.text(log).lines().noneMatch(l -> l.matches("^ *PRUNE *vmlinux$"))) {
            throw new KernelCheckException(log + ": make did not run the prune step");
        }
        keep(dir, setup.dir(Build.PRUNED), image);
        if (Arrays.equals(
                ObjectTables.read(setup.dir(Build.UNPRUNED).resolve(image)),
                ObjectTables.read(setup.dir(Build.PRUNED).resolve(image)))) {
            throw new KernelCheckException(image + ": make did not redo the boot image after pruning");
        }
    }

    private static void keep(Path from, Path to, String image) {
        try {
            Files.createDirectories(to.resolve(image).getParent());
            Files.copy(from.resolve("vmlinux"), to.resolve("vmlinux"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(from.resolve(image), to.resolve(image), StandardCopyOption.REPLACE_EXISTING);
            // What `mcountkit functions` reads the kernel's options from, to compare with its lists.
            Files.copy(from.resolve(".config"), to.resolve(".config"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
