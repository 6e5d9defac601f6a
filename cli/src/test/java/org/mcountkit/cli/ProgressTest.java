package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Outcome;

/** The terminal status line: quiet for the first second, then redrawn in place, cleared at the end. */
class ProgressTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void quietForASecondThenFilesSitesAndRateOnOneLine() {
        AtomicLong now = new AtomicLong(7 * SECOND);
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(terminal, true, StandardCharsets.UTF_8), 5, now::get);
        Path file = Path.of("a.o");

        now.addAndGet(SECOND / 2);
        progress.finished(Outcome.of(file, reportWithSites(3)));
        assertEquals("", drawn(terminal), "nothing in the first second");

        now.addAndGet(SECOND + SECOND / 2);
        progress.finished(Outcome.failed(file, Failure.NO_SUCH_FILE, "no such file"));
        assertEquals("\r[2/5 files] 3 sites, 1 files/s ", drawn(terminal));

        now.addAndGet(SECOND / 20);
        progress.finished(Outcome.of(file, reportWithSites(2)));
        assertEquals("\r[2/5 files] 3 sites, 1 files/s ", drawn(terminal), "no redraw within 0.1 s");

        now.addAndGet(SECOND * 2);
        progress.finished(Outcome.of(file, reportWithSites(1)));
        progress.close();
        assertEquals("\r[2/5 files] 3 sites, 1 files/s \r[4/5 files] 6 sites, 1 files/s \r\033[K", drawn(terminal));
    }

    @Test
    void aRunThatEndsWithinTheQuietSecondLeavesTheTerminalUntouched() {
        AtomicLong now = new AtomicLong();
        ByteArrayOutputStream terminal = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(terminal, true, StandardCharsets.UTF_8), 2, now::get);
        progress.finished(Outcome.of(Path.of("a.o"), reportWithSites(4)));
        now.set(SECOND - 1);
        progress.finished(Outcome.of(Path.of("b.o"), reportWithSites(4)));
        progress.close();
        assertEquals("", drawn(terminal));
    }

    private static String drawn(ByteArrayOutputStream terminal) {
        return terminal.toString(StandardCharsets.UTF_8);
    }

    private static FileReport reportWithSites(int count) {
        CallSite site = new CallSite(1, ".text", 0, 5, "__fentry__", SiteSource.RELOCATION, "f", 0);
        return new FileReport(
                Path.of("a.o"),
                "x86_64",
                new ElfTarget(ElfMachine.EM_X86_64, ElfClass.ELF64, Endian.LITTLE, 0),
                Collections.nCopies(count, site),
                List.of(),
                List.of(),
                true,
                false);
    }

    @Test
    void quietOrOffATerminalDrawsNothing() {
        PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

        assertEquals(err, Progress.terminal(false, true, err));
        assertEquals(null, Progress.terminal(true, true, err), "-q silences the status line");
        assertEquals(null, Progress.terminal(false, false, err));
    }
}
