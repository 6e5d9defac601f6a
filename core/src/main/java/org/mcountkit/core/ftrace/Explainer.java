package org.mcountkit.core.ftrace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.ExplainReason;
import org.mcountkit.core.Explanation;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.scan.Sites;

/**
 * Answers why a function is or is not in {@code available_filter_functions}: from vmlinux's
 * symbols and records ({@link FilterFunctions}) first, then, where the image cannot tell, from the
 * objects the kernel was linked from (the one that defines the function: does it have sites at
 * all, for other functions, in an untraced section, for a weak copy another object overrode).
 */
public final class Explainer {

    /** The suffixes gcc and clang give a function's clones and split-off parts. */
    private static final String CLONE_SUFFIX =
            "(\\.(isra|constprop|part|cold|llvm|lto_priv|localalias)(\\.[0-9A-Za-z_]+)?)+";

    /** A section of vmlinux ftrace never traces, between two linker-script symbols. */
    private record UntracedRange(String section, String start, String end) {}

    private static final List<UntracedRange> UNTRACED = List.of(
            new UntracedRange(".noinstr.text", "__noinstr_text_start", "__noinstr_text_end"),
            new UntracedRange(".entry.text", "__entry_text_start", "__entry_text_end"));

    private final Backends backends;

    public Explainer(Backends backends) {
        this.backends = backends;
    }

    /**
     * Explains each of {@code functions} in {@code image}; {@code objects} are object files or
     * build folders (every {@code .o} under them of the image's machine), read once for all.
     */
    public List<Explanation> explain(
            List<String> functions,
            Path image,
            List<Path> objects,
            Optional<Path> config,
            Optional<KernelRelease> release) {
        FunctionList list = new FilterFunctions(backends).list(image, List.of(), config, release);
        try (ElfImage vmlinux = ElfImage.open(image, backends)) {
            ElfFile file = vmlinux.file();
            long mask = ElfMachine.EM_ARM.is(vmlinux.target()) ? ~1L : -1L;
            Map<String, Pattern> clones = new LinkedHashMap<>();
            Map<String, List<Explanation.Copy>> exact = new HashMap<>();
            Map<String, List<Explanation.Copy>> cloned = new HashMap<>();
            for (String f : functions) {
                clones.put(f, Pattern.compile(Pattern.quote(f) + CLONE_SUFFIX));
                exact.put(f, new ArrayList<>());
                cloned.put(f, new ArrayList<>());
            }
            for (int i = 1; i < file.symbolCount(); i++) {
                Symbol raw = file.symbol(i);
                String base = baseName(raw.name());
                if (!clones.containsKey(base)) {
                    continue;
                }
                boolean same = raw.name().equals(base);
                if (!same && !clones.get(base).matcher(raw.name()).matches()) {
                    continue;
                }
                Symbol s = vmlinux.atCode(raw);
                if (!s.isFunction() || !s.isInSection()) {
                    continue;
                }
                long start = s.value() & mask;
                Explanation.Copy copy =
                        new Explanation.Copy(raw.name(), start, s.size(), recordsIn(list, start, s.size()));
                (same ? exact : cloned).get(base).add(copy);
            }
            Set<String> bounds = new java.util.HashSet<>();
            UNTRACED.forEach(u -> bounds.addAll(List.of(u.start(), u.end())));
            ImageMemory memory = new ImageMemory(file, bounds);
            Set<String> names = new java.util.HashSet<>(functions);
            cloned.values().forEach(copies -> copies.forEach(c -> names.add(c.symbol())));
            Map<String, List<Definition>> definitions = objectDefinitions(names, vmlinux.target(), objects);
            Map<Long, List<String>> aliases = aliases(vmlinux, exact, cloned, mask);
            Set<String> dwarfNames = new java.util.HashSet<>(functions);
            aliases.values().forEach(dwarfNames::addAll);
            DwarfEvidence dwarf = DwarfEvidence.read(file, dwarfNames);
            List<Explanation> out = new ArrayList<>();
            for (String f : functions) {
                List<Definition> of = new ArrayList<>(definitions.getOrDefault(f, List.of()));
                if (exact.get(f).isEmpty()) {
                    cloned.get(f).forEach(c -> of.addAll(definitions.getOrDefault(c.symbol(), List.of())));
                }
                out.add(decide(f, exact.get(f), cloned.get(f), memory, of, !objects.isEmpty(), dwarf, aliases));
            }
            return out;
        }
    }

    /**
     * The other function symbols at each copy's address: a C alias ({@code sched_clock} of
     * {@code native_sched_clock}) has no DWARF of its own, the function it aliases has.
     */
    private static Map<Long, List<String>> aliases(
            ElfImage vmlinux,
            Map<String, List<Explanation.Copy>> exact,
            Map<String, List<Explanation.Copy>> cloned,
            long mask) {
        Map<Long, List<String>> at = new HashMap<>();
        Stream.concat(exact.values().stream(), cloned.values().stream())
                .flatMap(List::stream)
                .forEach(c -> at.put(c.address(), new ArrayList<>()));
        ElfFile file = vmlinux.file();
        for (int i = 1; i < file.symbolCount(); i++) {
            Symbol s = vmlinux.atCode(file.symbol(i));
            List<String> names = at.get(s.value() & mask);
            if (names != null && s.isFunction() && s.isInSection() && !names.contains(s.name())) {
                names.add(s.name());
            }
        }
        return at;
    }

    /** The name a clone is of: up to its first dot (a C function's name has none). */
    static String baseName(String name) {
        int dot = name.indexOf('.', 1);
        return dot < 0 ? name : name.substring(0, dot);
    }

    private static List<FtraceRecord> recordsIn(FunctionList list, long start, long size) {
        long end = start + Math.max(size, 1);
        return list.records().stream()
                .filter(r -> r.module().isEmpty() && r.fate() != RecordFate.ZERO)
                .filter(r ->
                        Long.compareUnsigned(r.address(), start) >= 0 && Long.compareUnsigned(r.address(), end) < 0)
                .toList();
    }

    /**
     * The reason, in the order the causes exclude one another: a listed copy; else what the
     * image's records say (invalid, init text); else where the code lies (an untraced section);
     * else what the defining object says (an overridden weak copy, notrace, no ftrace flags); else
     * what the image's DWARF says of the defining unit. The function's own symbols are the copies
     * asked about; without one, its clones.
     */
    private static Explanation decide(
            String function,
            List<Explanation.Copy> exact,
            List<Explanation.Copy> cloned,
            ImageMemory memory,
            List<Definition> definitions,
            boolean objectsGiven,
            DwarfEvidence dwarf,
            Map<Long, List<String>> aliases) {
        List<Explanation.Copy> all =
                Stream.concat(exact.stream(), cloned.stream()).toList();
        List<String> evidence = new ArrayList<>();
        dwarf.problem().ifPresent(evidence::add);
        if (all.isEmpty()) {
            evidence.add("vmlinux has no function symbol " + function + " nor a clone of it");
            definitions.forEach(d -> evidence.add(d.object() + " defines it, and the link kept no copy of it"));
            dwarf.noSymbol(function).ifPresent(evidence::add);
            return new Explanation(function, false, ExplainReason.NO_SYMBOL, all, evidence);
        }
        List<Explanation.Copy> copies = exact.isEmpty() ? cloned : exact;
        for (Explanation.Copy c : copies) {
            evidence.add(c.symbol() + " at " + hex(c.address()) + " (" + c.size() + " bytes)"
                    + (c.listed() ? ": listed as " + listedLine(c) : c.records().isEmpty() ? ": no record" : ""));
        }
        if (copies.stream().anyMatch(Explanation.Copy::listed)) {
            ExplainReason reason = exact.isEmpty()
                    ? ExplainReason.ONLY_CLONES
                    : exact.size() > 1 ? ExplainReason.DUPLICATE_NAME : ExplainReason.TRACEABLE;
            return new Explanation(function, true, reason, all, evidence);
        }
        if (exact.isEmpty()) {
            evidence.add("no symbol " + function + " of its own: only the compiler's clones, none of them listed");
        }
        for (Explanation.Copy c : copies) {
            for (FtraceRecord r : c.records()) {
                String at = "its record at " + hex(r.address()) + " (" + c.symbol() + "+0x"
                        + Long.toHexString(r.address() - c.address()) + ")";
                if (r.fate() == RecordFate.INVALID) {
                    evidence.add(at + " is listed as " + r.line() + " and disabled: kallsyms names it "
                            + r.symbol().map(n -> n + "+" + r.offset()).orElse("nothing")
                            + ", further than the machine's FTRACE_MCOUNT_MAX_OFFSET");
                    return new Explanation(function, false, ExplainReason.INVALID, all, evidence);
                }
                if (r.fate() == RecordFate.INIT_FREED) {
                    evidence.add(at + " is in the init text, which ftrace_free_init_mem() drops once boot is done");
                    return new Explanation(function, false, ExplainReason.INIT_ONLY, all, evidence);
                }
            }
        }
        for (UntracedRange u : UNTRACED) {
            Optional<Long> from = memory.address(u.start());
            Optional<Long> to = memory.address(u.end());
            for (Explanation.Copy c : copies) {
                if (from.isPresent()
                        && to.isPresent()
                        && Long.compareUnsigned(c.address(), from.get()) >= 0
                        && Long.compareUnsigned(c.address(), to.get()) < 0) {
                    evidence.add(c.symbol() + " lies in " + u.section() + " (" + u.start() + ".." + u.end() + ")");
                    return new Explanation(function, false, ExplainReason.UNTRACED_SECTION, all, evidence);
                }
            }
        }
        if (definitions.isEmpty()) {
            Optional<DwarfEvidence.Verdict> verdict = dwarf.siteless(function, copies, aliases);
            if (verdict.isPresent()) {
                evidence.addAll(verdict.get().evidence());
                return new Explanation(function, false, verdict.get().reason(), all, evidence);
            }
            evidence.add(
                    objectsGiven
                            ? "no object given defines it as a function: a linker-script symbol, an alias, or assembly"
                            : "no object given: give the objects or the build folder to tell notrace, inline and missing"
                                    + " ftrace flags apart");
            return new Explanation(function, false, ExplainReason.NO_SITE, all, evidence);
        }
        Optional<Definition> weakWithSite =
                definitions.stream().filter(d -> d.weak() && d.sitesInIt() > 0).findFirst();
        Optional<Definition> strong =
                definitions.stream().filter(d -> !d.weak()).findFirst();
        if (weakWithSite.isPresent() && strong.isPresent()) {
            evidence.add(weakWithSite.get().object() + " has a weak " + function + " with a site; "
                    + strong.get().object() + "'s definition overrides it and has "
                    + strong.get().describe());
            return new Explanation(function, false, ExplainReason.OVERRIDDEN_WEAK, all, evidence);
        }
        Definition d = strong.orElse(definitions.get(0));
        evidence.add(d.object() + " defines " + d.function() + " (" + d.section() + ") and has " + d.describe());
        if (d.sitesInIt() > 0) {
            evidence.add("the image's table has no record of those sites: that object was not recorded");
            return new Explanation(function, false, ExplainReason.UNRECORDED, all, evidence);
        }
        if (d.untracedOnly()) {
            evidence.add("its only calls to the hook are in " + d.section() + ", a section ftrace never traces");
            return new Explanation(function, false, ExplainReason.UNTRACED_SECTION, all, evidence);
        }
        return new Explanation(
                function,
                false,
                d.sitesInObject() > 0 ? ExplainReason.NOTRACE : ExplainReason.NO_FTRACE_FLAGS,
                all,
                evidence);
    }

    private static String listedLine(Explanation.Copy c) {
        return c.records().stream()
                .filter(r -> r.fate() == RecordFate.LISTED)
                .map(FtraceRecord::line)
                .findFirst()
                .orElse("");
    }

    private static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }

    /** A definition of the function in an object: where, whether weak, and the sites in it and in the whole object. */
    record Definition(
            String function,
            Path object,
            String section,
            boolean weak,
            int sitesInIt,
            int sitesInObject,
            boolean untracedOnly) {
        String describe() {
            if (sitesInObject == 0) {
                return "no site at all (built without the ftrace flags)";
            }
            return sitesInIt + " site" + (sitesInIt == 1 ? "" : "s") + " in it and " + sitesInObject + " in the object";
        }
    }

    /** Every definition of each of {@code functions} among the objects (files, or folders searched for .o files) of {@code target}'s machine. */
    private Map<String, List<Definition>> objectDefinitions(
            Set<String> functions, ElfTarget target, List<Path> objects) {
        Map<String, List<Definition>> found = new HashMap<>();
        for (Path object : objectFiles(objects)) {
            for (Definition d : definitions(functions, target, object)) {
                found.computeIfAbsent(d.function(), k -> new ArrayList<>()).add(d);
            }
        }
        return found;
    }

    private static List<Path> objectFiles(List<Path> paths) {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.isDirectory(p)) {
                files.add(p);
                continue;
            }
            try (Stream<Path> walk = Files.walk(p)) {
                walk.filter(f -> {
                            String n = f.getFileName().toString();
                            return n.endsWith(".o")
                                    && !n.endsWith(".mod.o")
                                    && !n.startsWith(".tmp")
                                    && !n.equals("vmlinux.o")
                                    && Files.isRegularFile(f);
                        })
                        .sorted()
                        .forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private List<Definition> definitions(Set<String> functions, ElfTarget target, Path object) {
        List<Symbol> defined = new ArrayList<>();
        try (ElfFile file = ElfFiles.open(object)) {
            if (file.target().machine().number() != target.machine().number() || file.type() != ElfFile.ET_REL) {
                return List.of();
            }
            file.symbolsNamed(functions).keySet().stream()
                    .map(file::symbol)
                    .filter(x -> x.isFunction() && x.isInSection())
                    .forEach(defined::add);
        } catch (InputException e) {
            // Not ELF of a machine this library reads (a host tool's object in a build folder): not the kernel's.
            return List.of();
        }
        if (defined.isEmpty()) {
            return List.of();
        }
        try (ElfImage image = ElfImage.open(object, backends)) {
            Sites sites = Sites.of(image);
            List<CallSite> all = Stream.concat(sites.calls().stream(), sites.tableEntries().stream())
                    .toList();
            int inObject = (int) all.stream().map(Explainer::place).distinct().count();
            List<Definition> out = new ArrayList<>();
            for (Symbol d : defined) {
                Symbol s = image.atCode(d);
                int inIt = (int) all.stream()
                        .filter(c -> inside(c, s))
                        .map(Explainer::place)
                        .distinct()
                        .count();
                boolean untraced = sites.untraced().stream().anyMatch(c -> inside(c, s));
                out.add(new Definition(
                        d.name(),
                        object,
                        image.section(s.sectionIndex()).name(),
                        d.isWeak(),
                        inIt,
                        inObject,
                        untraced && inIt == 0));
            }
            return out;
        } catch (InputException e) {
            return List.of();
        }
    }

    /** A site's place, the same whether a call or a table entry names it. */
    private static String place(CallSite c) {
        return c.sectionIndex() + ":" + c.offset();
    }

    private static boolean inside(CallSite c, Symbol s) {
        return c.sectionIndex() == s.sectionIndex()
                && c.offset() >= s.value()
                && c.offset() < s.value() + Math.max(s.size(), 1);
    }
}
