package org.mcountkit.core.ftrace;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.mcountkit.core.ExplainReason;
import org.mcountkit.core.dwarf.CompileUnit;
import org.mcountkit.core.dwarf.DebugInfo;
import org.mcountkit.core.dwarf.DwarfException;
import org.mcountkit.core.dwarf.DwarfFunction;
import org.mcountkit.core.elf.ElfFile;

/**
 * What a debug image's DWARF adds to explain's answers where the symbols and the table cannot
 * settle them: a function without a symbol was inlined into its callers, or is in no compile unit
 * at all; a function without a site comes from a unit compiled without the ftrace flags, or with
 * them (so it was made notrace), as gcc's {@code DW_AT_producer} records its switches.
 */
final class DwarfEvidence {

    /** A reason DWARF settles, with the sentence it rests on. */
    record Verdict(ExplainReason reason, List<String> evidence) {}

    private final Optional<Map<String, List<DwarfFunction>>> functions;
    private final Optional<String> unreadable;

    private DwarfEvidence(Optional<Map<String, List<DwarfFunction>>> functions, Optional<String> unreadable) {
        this.functions = functions;
        this.unreadable = unreadable;
    }

    /** The DWARF of {@code file} about {@code names}: none without {@code .debug_info}, or why it could not be read. */
    static DwarfEvidence read(ElfFile file, Set<String> names) {
        try {
            return new DwarfEvidence(DebugInfo.functions(file, names), Optional.empty());
        } catch (DwarfException e) {
            return new DwarfEvidence(Optional.empty(), Optional.of(e.getMessage()));
        }
    }

    /** Why the image's DWARF was not used, as evidence: empty where it was read or there is none. */
    Optional<String> problem() {
        return unreadable.map(r -> "its DWARF was not used: " + r);
    }

    /** For a function with no symbol: inlined everywhere, compiled to nothing, or in no compile unit. */
    Optional<String> noSymbol(String function) {
        if (functions.isEmpty()) {
            return Optional.empty();
        }
        List<DwarfFunction> defs = functions.get().getOrDefault(function, List.of());
        if (defs.isEmpty()) {
            return Optional.of("DWARF: no compile unit of this kernel defines " + function
                    + ": it is not built in (or written in assembly)");
        }
        int inlined = defs.stream().mapToInt(DwarfFunction::inlinedCopies).sum();
        String units = units(defs);
        if (inlined > 0) {
            boolean declared = defs.stream().anyMatch(d -> d.inline().declared());
            return Optional.of("DWARF: " + units + " define" + (defs.size() == 1 ? "s" : "") + " it"
                    + (declared ? ", declared inline," : "") + " and the compiler inlined it into " + inlined
                    + " place" + (inlined == 1 ? "" : "s") + ", keeping no copy of its own");
        }
        return Optional.of("DWARF: " + units + " define" + (defs.size() == 1 ? "s" : "")
                + " it, and the compiler emitted no code for it (unused, or every call folded away)");
    }

    /**
     * For a function whose code has no site and no object to say why: the flags of the unit whose
     * code starts at one of {@code addresses} (or the only unit that has code for it).
     */
    Optional<Verdict> siteless(String function, List<Long> addresses) {
        if (functions.isEmpty()) {
            return Optional.empty();
        }
        List<DwarfFunction> defs = functions.get().getOrDefault(function, List.of());
        Optional<DwarfFunction> def = defs.stream()
                .filter(d -> d.entries().stream().anyMatch(addresses::contains))
                .findFirst()
                .or(() -> defs.stream().filter(DwarfFunction::outOfLine).findFirst());
        if (def.isEmpty()) {
            return Optional.empty();
        }
        CompileUnit unit = def.get().unit();
        Optional<Boolean> flags = unit.ftraceFlags();
        if (flags.isEmpty()) {
            return Optional.of(new Verdict(
                    ExplainReason.NO_SITE,
                    List.of("DWARF: " + unit.name() + " defines it; its producer ("
                            + unit.producer().orElse("none")
                            + ") records no compiler switches, so notrace and missing ftrace flags cannot be told"
                            + " apart without its object")));
        }
        if (!flags.get()) {
            return Optional.of(new Verdict(
                    ExplainReason.NO_FTRACE_FLAGS,
                    List.of("DWARF: " + unit.name() + " defines it and was compiled without -pg or"
                            + " -fpatchable-function-entry (its switches: " + String.join(" ", unit.switches())
                            + ")")));
        }
        String tracing = unit.switches().stream()
                .filter(s -> s.equals("-p")
                        || s.equals("-pg")
                        || s.startsWith("-fpatchable-function-entry=")
                        || s.equals("-mfentry")
                        || s.equals("-mrecord-mcount"))
                .collect(Collectors.joining(" "));
        return Optional.of(new Verdict(
                ExplainReason.NOTRACE,
                List.of("DWARF: " + unit.name() + " defines it and was compiled with the ftrace flags (" + tracing
                        + "; gcc records -pg as -p), yet its code has no site: notrace"
                        + (def.get().inline().declared()
                                ? " (it is declared inline, which the kernel makes notrace)"
                                : ""))));
    }

    private static String units(List<DwarfFunction> defs) {
        return defs.stream().map(d -> d.unit().name()).distinct().collect(Collectors.joining(", "));
    }
}
