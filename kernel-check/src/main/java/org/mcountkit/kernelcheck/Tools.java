package org.mcountkit.kernelcheck;

import java.util.Arrays;
import org.mcountkit.testkit.Command;

/** Short runs of host tools (readelf, nm, dpkg-query) through the testkit's {@link Command}. */
final class Tools {

    private Tools() {}

    /** The program's standard output; fails when it exits non-zero. */
    static String check(String... command) {
        return Command.check(null, command).stdout();
    }

    /** The installed Debian package {@code name} and its version, as the reports name a source: "linux-source-6.1 6.1.192-1". */
    static String installedPackage(String name) {
        return check("dpkg-query", "-W", "-f=${Package} ${Version}", name);
    }

    /** The program's standard output whatever its exit status (readelf -x of a missing section warns, nothing more). */
    static String run(String... command) {
        return Command.run(null, Arrays.asList(command)).stdout();
    }
}
