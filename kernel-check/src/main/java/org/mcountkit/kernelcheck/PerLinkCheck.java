package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * --per-link: mcountkit's kernel from the tree patched with the machine's docs/ recipe, which
 * records vmlinux.o (or, post-link, makes the table after the first kallsyms link) instead of
 * each object; the C tool's kernel from the plain tree.
 */
final class PerLinkCheck extends ToolsCheck {

    PerLinkCheck(Setup setup, KernelBuild build) {
        super(setup, build);
    }

    @Override
    public void prepare() {
        if (!setup.options().reuse()) {
            Source.perLink(setup);
        }
    }

    /** The patched kernel first, the C tool's after (on a busy machine its build may be all there is time for). */
    @Override
    void buildKernels() {
        build.perLinkBuild(Source.perLinkDir(setup));
        build.build(Build.C_TOOL, setup.src(), Map.of());
    }

    @Override
    Path source(Build kernel) {
        return kernel == Build.MCOUNTKIT ? Source.perLinkDir(setup) : setup.src();
    }

    /** The patched build runs mcountkit's shims from PATH. */
    @Override
    Map<String, String> environment(Build kernel) {
        return kernel == Build.MCOUNTKIT
                ? Map.of("PATH", setup.out().resolve("per-link-bin") + ":" + System.getenv("PATH"))
                : Map.of();
    }

    /** No per-object tables to compare, only the kernels' tables (and the C tool's MIPS drops). */
    @Override
    ObjectComparison objects(List<String> failures) {
        return ObjectComparison.cToolDrops(setup.dir(Build.C_TOOL));
    }

    /** Post-link, the C kernel's entries in no function; per link, none. */
    @Override
    List<String> cOutside() {
        return setup.machine().postLink()
                ? KernelTable.read(setup.dir(Build.C_TOOL).resolve("vmlinux"), KernelTable.Bounds.KERNEL)
                        .outsideFunctions()
                : List.of();
    }

    /** The build recorded no object, so a copy of it is recorded here, in failed-objects/ beside the report. */
    @Override
    Path failedTable(String object) {
        Path built = setup.dir(Build.MCOUNTKIT).resolve(object);
        Path table = setup.out().resolve("failed-objects").resolve(object);
        KernelBuild.mkdirs(table.getParent());
        try {
            Files.copy(built, table, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path log = table.resolveSibling(table.getFileName() + ".record.log");
        if (setup.mcountkit().run(log, log, "record", table.toString()) != 0) {
            throw new KernelCheckException(Processes.text(log) + table + ": mcountkit record failed");
        }
        return table;
    }
}
