package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * --modules' module with an overridden weak function (kcweak-main.c, kcweak-strong.c): built
 * out of tree against each kernel (make M=), so each build's recordmcount records it as it
 * records the kernel's own modules. The C kernel loads it as built, and lists the weak body's
 * stale entry; the mcountkit kernel loads it after {@code mcountkit prune}, which zeroes that
 * entry (6.15's sorttable never touches modules), and lists no such line.
 */
final class WeakModule {

    static final String NAME = "kcweak";
    /** The .ko, relative to the build folder (where {@link Initramfs#modules} finds it). */
    static final String KO = NAME + "/" + NAME + ".ko";

    private WeakModule() {}

    /** Builds the module in {@code dir}/kcweak with {@code env}; in the mcountkit build, prunes it. */
    static void build(Setup setup, KernelBuild build, Build tool, Path src, Map<String, String> env) {
        Path dir = setup.dir(tool);
        Path ext = dir.resolve(NAME);
        KernelBuild.mkdirs(ext);
        for (String file : List.of("kcweak-main.c", "kcweak-strong.c", "kcweak.h")) {
            Processes.write(ext.resolve(file), KernelBuild.resource(file));
        }
        Processes.write(ext.resolve("Kbuild"), KernelBuild.resource("kcweak.Kbuild"));
        Path log = dir.resolve("kcweak.log");
        if (Processes.run(build.kmake(src, dir, "M=" + ext, "modules"), null, env, log, log) != 0) {
            throw new KernelCheckException(Processes.tail(log, 20) + "\n" + ext + ": make M= modules failed");
        }
        if (tool != Build.MCOUNTKIT) {
            return;
        }
        Path prune = dir.resolve("kcweak-prune.log");
        int status =
                setup.mcountkit().run(prune, prune, "prune", dir.resolve(KO).toString());
        if (status != 0 || !Processes.text(prune).contains(" 1 zeroed")) {
            throw new KernelCheckException(Processes.text(prune) + dir.resolve(KO)
                    + ": mcountkit prune did not zero the one overridden weak function's entry (exit " + status + ")");
        }
    }
}
