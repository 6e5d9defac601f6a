package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The --config build's per-call log: one line per call, the last line of an object the one that counts. */
class FullSizeCallsTest {

    @Test
    void anObjectBuiltAgainCountsOnceWithItsLastCall() {
        FullSizeCalls calls = FullSizeCalls.parse(
                "calls.log",
                List.of("kernel/exit.o 1 900 0 2000", "fs/open.o 0 1000 0 3000", "kernel/exit.o 0 500 0 1500"));

        assertEquals(3, calls.calls());
        assertEquals(List.of("fs/open.o", "kernel/exit.o"), calls.objects());
        assertEquals(0.0015, calls.cSeconds(), 1e-9);
        assertEquals(0.0045, calls.mcountkitSeconds(), 1e-9);
        assertEquals(List.of(), calls.cFailed());
    }

    @Test
    void aLoggedCFailureHoldsOnlyWhileItsObjectsLastCallFailed() {
        FullSizeCalls calls = FullSizeCalls.parse(
                "calls.log",
                List.of("kernel/exit.o 1 900 0 2000", "fs/open.o 1 1000 0 3000", "fs/open.o 0 1000 0 3000"));
        List<String> logged = List.of(
                "fs/open.o: Cannot find symbol for section 7: .text.unlikely.",
                "kernel/exit.o: Cannot find symbol for section 9: .text.unlikely.");

        assertEquals(
                List.of("kernel/exit.o: Cannot find symbol for section 9: .text.unlikely."), calls.failures(logged));
        assertEquals(List.of("kernel/exit.o (exit 1)"), calls.cFailed());
    }

    @Test
    void aLineThatIsNotACallIsAnErrorNamingTheFileAndLine() {
        KernelCheckException e = assertThrows(
                KernelCheckException.class,
                () -> FullSizeCalls.parse("out/calls.log", List.of("fs/open.o 0 1000 0 3000", "fs/open.o 0 10")));

        assertEquals(
                "out/calls.log:2: not a call line (OBJECT C_STATUS C_MICROSECONDS MCOUNTKIT_STATUS"
                        + " MCOUNTKIT_MICROSECONDS): fs/open.o 0 10",
                e.getMessage());
    }
}
