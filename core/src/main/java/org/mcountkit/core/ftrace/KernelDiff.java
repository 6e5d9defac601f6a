package org.mcountkit.core.ftrace;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.mcountkit.core.Explanation;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionDiff;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelFiles;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.backends.Backends;

/**
 * Compares the traceable sets of two kernels: the lines each lists after boot (invalid records
 * aside), grouped by function (the name less its clone suffixes, and the module), and for a
 * function only one side lists, {@link Explainer}'s reason on the other side.
 */
public final class KernelDiff {

    private final Backends backends;

    public KernelDiff(Backends backends) {
        this.backends = backends;
    }

    public FunctionDiff diff(KernelFiles a, KernelFiles b) {
        Map<String, Set<String>> listedA = byFunction(list(a));
        Map<String, Set<String>> listedB = byFunction(list(b));
        Set<String> onlyA = new TreeSet<>();
        Set<String> onlyB = new TreeSet<>();
        List<FunctionDiff.Change> renamed = new ArrayList<>();
        Set<String> all = new TreeSet<>(listedA.keySet());
        all.addAll(listedB.keySet());
        for (String f : all) {
            Set<String> la = listedA.getOrDefault(f, Set.of());
            Set<String> lb = listedB.getOrDefault(f, Set.of());
            if (la.isEmpty()) {
                onlyB.add(f);
            } else if (lb.isEmpty()) {
                onlyA.add(f);
            } else if (!la.equals(lb)) {
                renamed.add(new FunctionDiff.Change(
                        FunctionDiff.Kind.RENAMED, f, List.copyOf(la), List.copyOf(lb), "listed under other names"));
            }
        }
        Map<String, String> whyNotA = reasons(a, onlyB);
        Map<String, String> whyNotB = reasons(b, onlyA);
        List<FunctionDiff.Change> changes = new ArrayList<>();
        for (String f : onlyA) {
            changes.add(new FunctionDiff.Change(
                    FunctionDiff.Kind.REMOVED, f, List.copyOf(listedA.get(f)), List.of(), whyNotB.get(f)));
        }
        for (String f : onlyB) {
            changes.add(new FunctionDiff.Change(
                    FunctionDiff.Kind.ADDED, f, List.of(), List.copyOf(listedB.get(f)), whyNotA.get(f)));
        }
        changes.addAll(renamed);
        changes.sort((x, y) -> x.function().compareTo(y.function()));
        return new FunctionDiff(
                listedA.values().stream().mapToInt(Set::size).sum(),
                listedB.values().stream().mapToInt(Set::size).sum(),
                changes);
    }

    /** A side's list; a problem with its vmlinux names the file, as one with a module does. */
    private FunctionList list(KernelFiles side) {
        try {
            return new FilterFunctions(backends).list(side.image(), side.modules(), Optional.empty(), Optional.empty());
        } catch (FileInputException e) {
            throw e;
        } catch (InputException e) {
            throw new FileInputException(side.image(), e.failure(), e.getMessage());
        }
    }

    /** The distinct lines listed after boot, by function: the name up to its clone suffixes, with " [module]" for a module's. */
    private static Map<String, Set<String>> byFunction(FunctionList list) {
        Map<String, Set<String>> by = new TreeMap<>();
        for (FtraceRecord r : list.listed(false)) {
            if (r.fate() != RecordFate.LISTED) {
                continue;
            }
            String function = Explainer.baseName(r.listedName())
                    + r.module().map(m -> " [" + m + "]").orElse("");
            by.computeIfAbsent(function, k -> new LinkedHashSet<>()).add(r.line());
        }
        return by;
    }

    /** Why each of {@code functions} (vmlinux's; a module's is not listed because its module is not) is not listed on {@code side}. */
    private Map<String, String> reasons(KernelFiles side, Set<String> functions) {
        List<String> vmlinux = functions.stream().filter(f -> !f.contains(" [")).toList();
        Map<String, String> reasons = new TreeMap<>();
        functions.stream()
                .filter(f -> f.contains(" ["))
                .forEach(f -> reasons.put(f, "not listed: its module lists no such function, or is not given"));
        if (!vmlinux.isEmpty()) {
            List<Explanation> explained = new Explainer(backends)
                    .explain(vmlinux, side.image(), side.objects(), Optional.empty(), Optional.empty());
            Map<String, Explanation> by =
                    explained.stream().collect(Collectors.toMap(Explanation::function, Function.identity()));
            // A function listed under another name there (an alias kallsyms prefers) says under which.
            vmlinux.forEach(f -> {
                Explanation e = by.get(f);
                reasons.put(
                        f,
                        e.traceable()
                                ? e.reason().label() + ", listed as " + String.join(", ", e.listedLines())
                                : e.reason().label());
            });
        }
        return reasons;
    }
}
