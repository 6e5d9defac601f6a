package org.mcountkit.cli;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.mcountkit.core.Outcome;

/**
 * One self-rewriting status line on the terminal for runs that last over a second: files done,
 * sites found, files per second. Silent when stdout is not a terminal (make, pipes, CI).
 */
final class Progress {

    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream terminal;
    private final int total;
    private final LongSupplier clock;
    private final long started;
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicLong sites = new AtomicLong();
    private final AtomicLong lastDrawn = new AtomicLong();
    private volatile boolean drawn;

    /** Draws on {@code terminal} (null: nowhere), timing with {@code clock} (nanoseconds). */
    Progress(PrintStream terminal, int total, LongSupplier clock) {
        this.terminal = terminal;
        this.total = total;
        this.clock = clock;
        this.started = clock.getAsLong();
    }

    /**
     * A progress line on stderr when stdout is a terminal and {@code -q} was not given, else one
     * that prints nothing.
     */
    static Progress forRun(int total, boolean quiet) {
        return new Progress(terminal(quiet, System.console() != null, System.err), total, System::nanoTime);
    }

    /** Where the line goes: {@code err} on a terminal, nowhere with {@code -q} or off a terminal. */
    static PrintStream terminal(boolean quiet, boolean onTerminal, PrintStream err) {
        return quiet || !onTerminal ? null : err;
    }

    void finished(Outcome outcome) {
        int files = done.incrementAndGet();
        if (outcome.report() != null) {
            sites.addAndGet(outcome.report().sites().size());
        }
        if (terminal == null) {
            return;
        }
        long now = clock.getAsLong();
        long last = lastDrawn.get();
        if (now - started < QUIET_NANOS || now - last < REDRAW_NANOS || !lastDrawn.compareAndSet(last, now)) {
            return;
        }
        double seconds = (now - started) / 1e9;
        synchronized (terminal) {
            terminal.printf("\r[%d/%d files] %d sites, %.0f files/s ", files, total, sites.get(), files / seconds);
            terminal.flush();
            drawn = true;
        }
    }

    /** Clears the line, so later output starts clean. */
    void close() {
        if (terminal != null && drawn) {
            synchronized (terminal) {
                terminal.print("\r\033[K");
                terminal.flush();
            }
        }
    }
}
