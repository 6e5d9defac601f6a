package org.mcountkit.core.ftrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.mcountkit.core.ExplainReason;
import org.mcountkit.core.Explanation;
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
                    + ": not built in, a macro, or written in assembly");
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
     * code for it (or for the function it is an alias of) starts at one of its copies' addresses.
     */
    Optional<Verdict> siteless(String function, List<Explanation.Copy> copies, Map<Long, List<String>> aliases) {
        if (functions.isEmpty()) {
            return Optional.empty();
        }
        for (Explanation.Copy copy : copies) {
            List<String> names = new ArrayList<>(List.of(function));
            aliases.getOrDefault(copy.address(), List.of()).stream()
                    .filter(n -> !n.equals(function) && !n.equals(copy.symbol()))
                    .forEach(names::add);
            for (String name : names) {
                Optional<DwarfFunction> def = functions.get().getOrDefault(name, List.of()).stream()
                        .filter(d -> d.entries().contains(copy.address()))
                        .findFirst();
                if (def.isPresent()) {
                    return Optional.of(verdict(
                            def.get(), name.equals(function) ? "" : " (" + function + " is an alias of " + name + ")"));
                }
            }
        }
        return Optional.empty();
    }

    private static Verdict verdict(DwarfFunction def, String alias) {
        CompileUnit unit = def.unit();
        String defines = "DWARF: " + def.name() + alias + " is defined in " + unit.name();
        Optional<Boolean> flags = unit.ftraceFlags();
        if (flags.isEmpty()) {
            return new Verdict(
                    ExplainReason.NO_SITE,
                    List.of(defines + ", whose producer records no compiler switches (clang, or"
                            + " -gno-record-gcc-switches), so notrace and missing ftrace flags cannot be told apart"
                            + " without its object"));
        }
        if (!flags.get()) {
            return new Verdict(
                    ExplainReason.NO_FTRACE_FLAGS,
                    List.of(defines + ", a unit compiled without -pg or -fpatchable-function-entry"));
        }
        String tracing = unit.switches().stream()
                .filter(s -> s.equals("-p")
                        || s.equals("-pg")
                        || s.startsWith("-fpatchable-function-entry=")
                        || s.equals("-mfentry")
                        || s.equals("-mrecord-mcount"))
                .collect(Collectors.joining(" "));
        return new Verdict(
                ExplainReason.NOTRACE,
                List.of(defines + ", a unit compiled with the ftrace flags (" + tracing
                        + "; gcc records -pg as -p), yet its code has no site: notrace"
                        + (def.inline().declared() ? " (it is declared inline, which the kernel makes notrace)" : "")));
    }

    /** The units' names, the first three and how many more. */
    private static String units(List<DwarfFunction> defs) {
        List<String> names = defs.stream().map(d -> d.unit().name()).distinct().toList();
        String first = String.join(", ", names.subList(0, Math.min(3, names.size())));
        return names.size() > 3 ? first + " and " + (names.size() - 3) + " more units" : first;
    }
}
