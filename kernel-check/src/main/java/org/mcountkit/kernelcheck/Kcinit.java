package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kcinit.c, the /init of the machines Debian 12 has no busybox-static for, compiled with the
 * machine's gcc. Static: the initramfs holds no C library. Warnings stop the build, so a change the
 * cross compilers read differently shows at once.
 */
final class Kcinit {

    static final List<String> FLAGS = List.of("-static", "-Os", "-Wall", "-Wextra", "-Werror");

    private Kcinit() {}

    /** kcinit.c written to {@code dir} and compiled with {@code gcc} into {@code dir/kcinit}; its output in kcinit.log. */
    static Path compile(String gcc, Path dir) {
        Path source = dir.resolve("kcinit.c");
        Path program = dir.resolve("kcinit");
        Path log = dir.resolve("kcinit.log");
        Processes.write(source, KernelBuild.resource("kcinit.c"));
        List<String> command = new ArrayList<>(List.of(gcc));
        command.addAll(FLAGS);
        command.addAll(List.of("-o", program.toString(), source.toString()));
        if (Processes.run(command, null, Map.of(), log, log) != 0) {
            throw new KernelCheckException(Processes.tail(log, 20) + "\n" + gcc + " " + String.join(" ", FLAGS)
                    + " could not build " + source);
        }
        return program;
    }
}
