package org.mcountkit.kernelcheck;

import java.util.Arrays;
import org.mcountkit.core.testkit.Command;

/** Short runs of host tools (readelf, nm, dpkg-query) through the testkit's {@link Command}. */
final class Tools {

    private Tools() {}

    /** The program's standard output; fails when it exits non-zero. */
    static String check(String... command) {
        return Command.check(null, command).stdout();
    }

    /** The program's standard output whatever its exit status (readelf -x of a missing section warns, nothing more). */
    static String run(String... command) {
        return Command.run(null, Arrays.asList(command)).stdout();
    }
}
