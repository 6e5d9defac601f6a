package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Self-tests and problems read from boot logs shaped as Linux 6.1 prints them. */
class BootLogTest {

    private static final String PASSING = """
            [    0.000000] Linux version 6.1.192
            [    0.101000] ftrace: allocating 8777 entries in 35 pages
            [    1.200000] Testing tracer function: PASSED
            [    1.300000] Testing dynamic ftrace: PASSED
            [    1.400000] Testing tracer function_graph:\s
            [    1.450000] random: crng init done
            [    1.500000] PASSED
            [    1.600000] Testing event sched_switch: OK
            kernel-check: functions begin
            kf start_kernel
            kd 1 pages:1 groups: 1
            kernel-check: functions end
            """;

    @Test
    void aTestEndsOnItsOwnLineOrALaterOne() {
        BootLog log = new BootLog(PASSING);

        assertEquals(
                List.of(
                        "PASSED tracer function",
                        "PASSED dynamic ftrace",
                        "PASSED tracer function_graph",
                        "OK event sched_switch"),
                log.selfTests().stream().map(BootLog.SelfTest::toString).toList());
        assertEquals(List.of("tracer function", "dynamic ftrace", "tracer function_graph"), log.passed());
        assertEquals(1, log.count("OK"));
        assertEquals(Optional.of("8777"), log.allocating());
        assertEquals(List.of(), log.problems(BootLog.Ending.FUNCTIONS));
    }

    @Test
    void aFailedTestATestCutShortAndAWarningAreEachAProblem() {
        String text = """
                [    1.200000] Testing tracer function: PASSED
                [    1.300000] Testing dynamic ftrace: .. filter failed count=0 ..FAILED!
                [    1.400000] Testing tracer nop:\s
                [    1.500000] Testing ftrace regs:\s
                [    1.600000] WARNING: CPU: 0 PID: 1 at kernel/trace/ftrace.c:2000
                """;

        List<String> problems = new BootLog(text).problems(BootLog.Ending.MODULES);

        assertEquals(
                List.of(
                        "no 'ftrace: allocating N entries' line",
                        "the self-test 'dynamic ftrace' did not pass",
                        "self-test dynamic ftrace: FAILED",
                        "self-test tracer nop: did not finish",
                        "self-test ftrace regs: did not finish",
                        "line 2:[    1.300000] Testing dynamic ftrace: .. filter failed count=0 ..FAILED!",
                        "line 5:[    1.600000] WARNING: CPU: 0 PID: 1 at kernel/trace/ftrace.c:2000",
                        "the boot did not run to its end (the initramfs printed no 'kernel-check: modules end')"),
                problems);
    }

    @Test
    void theInitramfsEndsAreWholeLines() {
        String text = PASSING + "kernel-check: available_filter_functions end\n";

        assertEquals(List.of(), new BootLog(text).problems(BootLog.Ending.FILTER_FUNCTIONS));
        assertEquals(
                List.of("the boot did not run to its end (the initramfs printed no 'kernel-check: modules end')"),
                new BootLog(text).problems(BootLog.Ending.MODULES));
    }

    /** A distribution's kernel runs no start-up self-test: its boot is judged by the rest alone. */
    @Test
    void aKernelWithoutSelfTestsIsJudgedByTheRest() {
        BootLog log = new BootLog("""
                [    0.124582] ftrace: allocating 40521 entries in 159 pages
                kernel-check: functions begin
                kernel-check: functions end
                """);

        assertEquals(List.of(), log.problemsWithoutSelfTests(BootLog.Ending.FUNCTIONS));
        assertEquals(
                List.of("the self-test 'tracer function' did not pass", "the self-test 'dynamic ftrace' did not pass"),
                log.problems(BootLog.Ending.FUNCTIONS));
        assertEquals(
                List.of(
                        "no 'ftrace: allocating N entries' line",
                        "the boot did not run to its end (the initramfs printed no 'kernel-check: modules end')"),
                new BootLog("[    1.0] Kernel panic\n").problemsWithoutSelfTests(BootLog.Ending.MODULES));
    }
}
