package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The default check: both tools record each object as Kbuild calls scripts/recordmcount. */
final class PerObjectCheck extends ToolsCheck {

    PerObjectCheck(Setup setup, KernelBuild build) {
        super(setup, build);
    }

    @Override
    void buildKernels() {
        build.build(Build.C_TOOL, setup.src(), Map.of());
        build.build(Build.MCOUNTKIT, setup.src(), Map.of());
    }

    @Override
    Path source(Build kernel) {
        return setup.src();
    }

    @Override
    Map<String, String> environment(Build kernel) {
        return Map.of();
    }

    @Override
    ObjectComparison objects(List<String> failures) {
        return ObjectComparison.compare(setup.dir(Build.C_TOOL), setup.dir(Build.MCOUNTKIT), failures);
    }

    @Override
    List<String> cOutside() {
        return List.of();
    }

    /** The mcountkit build recorded the object itself. */
    @Override
    Path failedTable(String object) {
        return setup.dir(Build.MCOUNTKIT).resolve(object);
    }
}
