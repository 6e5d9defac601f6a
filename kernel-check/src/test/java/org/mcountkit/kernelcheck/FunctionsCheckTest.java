package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FunctionsCheckTest {

    private static final List<String> BOOT = List.of(
            "km loaded crc16",
            "kf before the markers is not read",
            "kernel-check: functions begin",
            "kf start_kernel",
            "kf crc16 [crc16]",
            "ka ffffffff81000010 start_kernel",
            "ka ffffffffc0001020 crc16 [crc16]",
            "kd 1024 pages:5 groups: 2",
            "kp crc16 16384 0 - Live 0xffffffffc0001000",
            "kernel-check: functions end",
            "km loaded ext4");

    @Test
    void readsTheTaggedLinesBetweenTheMarkers() {
        FunctionsCheck.Capture c = FunctionsCheck.Capture.of(BOOT).orElseThrow();

        assertEquals(List.of("start_kernel", "crc16 [crc16]"), c.lines());
        assertEquals(Optional.of("1024 pages:5 groups: 2"), c.totalInfo());
        assertEquals(Map.of("crc16", 0xffffffffc0001000L), c.moduleBases());
        assertEquals(List.of("ffffffff81000010 start_kernel", "20 crc16 [crc16]"), c.moduleRelativeAddrs());
        assertEquals(List.of("crc16", "ext4"), FunctionsCheck.loaded(BOOT));
    }

    @Test
    void noEndMarkerIsNoCapture() {
        assertEquals(Optional.empty(), FunctionsCheck.Capture.of(BOOT.subList(0, 5)));
    }

    @Test
    void aDifferenceNamesItsFirstLine() {
        List<String> lines = new ArrayList<>();
        List<String> reasons = new ArrayList<>();

        FunctionsCheck.compare(
                "available_filter_functions", List.of("a", "b", "c"), List.of("a", "x"), Build.C_TOOL, lines, reasons);

        assertEquals(
                List.of("available_filter_functions: 3 lines, mcountkit functions 2; first difference line 2: the"
                        + " kernel's 'b', functions' 'x'"),
                lines);
        assertEquals(
                List.of("the c kernel's available_filter_functions differs from mcountkit functions (line 2: the"
                        + " kernel's 'b', functions' 'x')"),
                reasons);
    }

    /** A KASLR kernel's vmlinux lines move by one offset; its modules' are already made relative. */
    @Test
    void aRandomizedKernelsAddressesAreComparedLessItsOffset() {
        List<String> live = List.of(
                "ffffffff9f801014 __traceiter_initcall_level", "ffffffff9f801100 do_one_initcall", "20 crc16 [crc16]");
        List<String> expected = List.of(
                "ffffffff81001014 __traceiter_initcall_level", "ffffffff81001100 do_one_initcall", "20 crc16 [crc16]");

        long slide = FunctionsCheck.kaslrSlide(live, expected);

        assertEquals(0x1e800000L, slide);
        assertEquals(expected, FunctionsCheck.slid(live, -slide));
        assertEquals(0, FunctionsCheck.kaslrSlide(List.of("ffffffff81000010 a"), List.of("ffffffff81000010 b")));
        assertEquals(
                List.of("ffffffff81001014 __traceiter_initcall_level", "ffffffff81001104 do_one_initcall"),
                FunctionsCheck.slid(List.of(live.get(0), "ffffffff9f801104 do_one_initcall"), -slide),
                "a line moved by another amount still differs");
    }
}
