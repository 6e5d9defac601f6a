package org.mcountkit.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;

/**
 * The spellings many tests compare whole lists of: a change here changes what they all expect,
 * so each format is pinned, with the cases of a missing hook, function, offset or section.
 */
class SiteTextTest {

    private static final CallSite CALL =
            new CallSite(1, ".text", 0x24, 5, "mcount", SiteSource.RELOCATION, "g_func+0x4", 0x401024);
    private static final CallSite ENTRY =
            new CallSite(1, ".text", 0, 8, null, SiteSource.PATCHABLE_FUNCTION_ENTRIES, "f", 0);
    private static final CallSite NOWHERE = new CallSite(1, ".text", 0x10, 5, null, SiteSource.MCOUNT_LOC, null, 0x10);

    @Test
    void aSiteIsSpelledWithListsFieldsInListsOrder() {
        assertEquals(".text+0x24", SiteText.place(CALL));
        assertEquals(".text+0x24 5 g_func+0x4", SiteText.brief(CALL));
        assertEquals(".text+0x24 5 g_func+0x4 mcount relocation", SiteText.line(CALL));
        assertEquals(
                List.of(".text+0x24 5 g_func+0x4 mcount relocation", ".text+0x0 8 f patchable_function_entries"),
                SiteText.lines(List.of(CALL, ENTRY)));
    }

    @Test
    void aTableEntryNamesNoHookAndASiteInNoFunctionIsAQuestionMark() {
        assertEquals(".text+0x0 8 f patchable_function_entries", SiteText.line(ENTRY));
        assertEquals(".text+0x10 5 ? mcount_loc", SiteText.line(NOWHERE));
    }

    @Test
    void aDiagnosticIsSeverityPlaceAndMessage() {
        assertEquals(
                "warning .text+0xc not a NOP",
                SiteText.diagnostic(Diagnostic.at(Severity.WARNING, ".text", 0xc, "not a NOP")));
        assertEquals(".text+0xc", SiteText.place(Diagnostic.at(Severity.WARNING, ".text", 0xc, "not a NOP")));
        assertEquals(
                "note .rela.text no hook",
                SiteText.diagnostic(new Diagnostic(Severity.NOTE, ".rela.text", -1, "no hook")));
        assertEquals("error truncated", SiteText.diagnostic(Diagnostic.of(Severity.ERROR, "truncated")));
    }
}
