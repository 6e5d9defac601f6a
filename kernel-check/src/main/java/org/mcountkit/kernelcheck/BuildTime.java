package org.mcountkit.kernelcheck;

import java.util.function.IntSupplier;

/**
 * A build's wall clock and CPU time: the CPU time is that of the children this JVM waited for (make and everything it ran), from /proc/self/stat's
 * cutime and cstime.
 */
record BuildTime(int status, double wall, double user, double sys) {

    static BuildTime of(IntSupplier run) {
        long[] before = children();
        long start = System.nanoTime();
        int status = run.getAsInt();
        double wall = (System.nanoTime() - start) / 1e9;
        long[] after = children();
        double tick = ticksPerSecond();
        return new BuildTime(status, wall, (after[0] - before[0]) / tick, (after[1] - before[1]) / tick);
    }

    /** "REAL USER SYS" in seconds to the millisecond: the build.time line the reports read. */
    String line() {
        return String.format("%.3f %.3f %.3f", wall, user, sys);
    }

    /** cutime and cstime, in clock ticks. */
    private static long[] children() {
        String stat = Processes.text(java.nio.file.Path.of("/proc/self/stat"));
        // The fields after the command name's closing parenthesis: state is field 3, cutime 16, cstime 17.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return new long[] {Long.parseLong(f[13]), Long.parseLong(f[14])};
    }

    private static double ticksPerSecond() {
        return Double.parseDouble(Tools.check("getconf", "CLK_TCK").strip());
    }
}
