package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ExplainCheckTest {

    @Test
    void readsOneRowsLinesWithoutTheirComments() {
        String text = """
                # a comment
                [x86_64 6.1 gcc]
                kfree traceable   # mm/slob.c
                printk no-symbol
                ftrace_ops_list_func no-site dwarf=no-ftrace-flags
                [arm64 6.1 gcc]
                kfree notrace
                """;

        assertEquals(
                Map.of(
                        "kfree", new ExplainCheck.Answer("traceable", "traceable"),
                        "printk", new ExplainCheck.Answer("no-symbol", "no-symbol"),
                        "ftrace_ops_list_func", new ExplainCheck.Answer("no-site", "no-ftrace-flags")),
                ExplainCheck.table(text, "x86_64 6.1 gcc"));
        assertEquals(Map.of(), ExplainCheck.table(text, "i386 6.1 gcc"));
    }

    @Test
    void takesEachFunctionsReasonFromItsFirstLine() {
        String out = """
                kfree: traceable: traceable
                  kfree at 0xffffffff810df35d (20 bytes): listed as kfree
                memcpy: not traceable: untraced-section
                  memcpy lies in .noinstr.text (__noinstr_text_start..__noinstr_text_end)
                """;

        assertEquals(Map.of("kfree", "traceable", "memcpy", "untraced-section"), ExplainCheck.reasons(out));
    }

    @Test
    void theBundledTableHasThirtyFunctionsAndEveryReasonTheKernelCanShow() {
        Map<String, String> table = new java.util.LinkedHashMap<>();
        Set<String> withDwarf = new java.util.HashSet<>();
        ExplainCheck.table(KernelBuild.resource("explain.table"), "x86_64 6.1 gcc")
                .forEach((f, a) -> {
                    table.put(f, a.reason());
                    withDwarf.add(a.withDwarf());
                });

        assertTrue(table.size() >= 30, table.size() + " functions");
        assertEquals(
                new TreeSet<>(List.of(
                        "traceable",
                        "duplicate-name",
                        "only-clones",
                        "init-only",
                        "no-symbol",
                        "untraced-section",
                        "notrace",
                        "no-ftrace-flags")),
                new TreeSet<>(table.values()));
        assertEquals(
                Set.of(),
                java.util.stream.Stream.concat(table.values().stream(), withDwarf.stream())
                        .filter(r -> java.util.Arrays.stream(org.mcountkit.core.ExplainReason.values())
                                .noneMatch(e -> e.label().equals(r)))
                        .collect(java.util.stream.Collectors.toSet()));
    }
}
