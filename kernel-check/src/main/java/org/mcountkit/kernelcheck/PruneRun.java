package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * --prune: builds mcountkit's kernel and links it again with README's prune step
 * ({@link PruneBuild}), boots both with the same initramfs and reports what the step changed
 * ({@link PruneCheck}) and each kernel's lists against {@code mcountkit functions}.
 */
record PruneRun(Setup setup, KernelBuild build) implements Check {

    @Override
    public boolean run() {
        if (setup.options().reuse()) {
            RunSteps.requireFinished(setup);
        } else {
            RunSteps.freshOut(setup);
            PruneBuild.run(setup, build);
        }
        Path cpio = new Initramfs(setup).forPrune();
        Map<Build, Path> initrds = new LinkedHashMap<>();
        setup.kernels().forEach(k -> initrds.put(k, cpio));
        RunSteps.bootAndVerify(setup, initrds);
        String version = RunSteps.kernelVersion(setup);
        StringBuilder report = new StringBuilder();
        boolean pass = PruneCheck.report(setup, build, version, report);
        pass &= RunSteps.functions(setup, report);
        RunSteps.write(setup, report);
        RunSteps.sayWritten(setup);
        return pass;
    }
}
