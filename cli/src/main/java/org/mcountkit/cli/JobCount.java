package org.mcountkit.cli;

/** The job counts a run takes; free of picocli, for {@link RecordLine} too. */
final class JobCount {

    static final int DEFAULT = Runtime.getRuntime().availableProcessors();

    /**
     * The most threads a run takes. A fixed bound, not one from the cores, so a command line means
     * the same on every machine (a build script written on a large server runs on a laptop);
     * each thread holds a file's data in the one heap, and more than this many never helps.
     */
    static final int MAX = 1024;

    private JobCount() {}

    static boolean valid(int n) {
        return n >= 1 && n <= MAX;
    }

    /** Why {@code n}, not {@link #valid}, is refused. */
    static String outOfRange(int n) {
        return "-j takes 1 to " + MAX + " files processed in parallel, not " + n;
    }
}
